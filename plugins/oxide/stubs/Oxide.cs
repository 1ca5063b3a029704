// A working stand-in for the part of Oxide/uMod that RustStoreDelivery.cs uses, so the real plugin
// runs under mono without the game (plugins/oxide/harness, tests/plugin). Each piece behaves as
// Oxide's own source does (OxideMod/Oxide.Core): data files are truncated and rewritten in place
// with no flush; a repeating timer whose callback throws is destroyed; a web request's callback
// runs on the main thread with code 0 and the error's text when the connection fails; permissions
// and groups are Oxide's rules. Names and signatures follow Oxide.Core / Oxide.Rust. Never shipped.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Reflection;
using System.Text;
using System.Threading;
using Harness;
using Newtonsoft.Json;

namespace Oxide.Core
{
    public class DataFileSystem
    {
        public string Directory { get { return Path.Combine(World.Root, "oxide", "data"); } }

        private string PathOf(string name) { return Path.Combine(Directory, name + ".json"); }

        public bool ExistsDatafile(string name) { return File.Exists(PathOf(name)); }

        public T ReadObject<T>(string name)
        {
            if (!ExistsDatafile(name))
            {
                var created = Activator.CreateInstance<T>();
                WriteObject(name, created);
                return created;
            }
            // An empty file deserializes to null, as in Oxide.
            return JsonConvert.DeserializeObject<T>(File.ReadAllText(PathOf(name)));
        }

        public void WriteObject<T>(string name, T Object, bool sync = false)
        {
            World.WriteTime.Start();
            try
            {
                var json = JsonConvert.SerializeObject(Object, Formatting.Indented);
                World.WriteDataFile(PathOf(name), json);
            }
            finally
            {
                World.WriteTime.Stop();
            }
        }
    }

    public class OxideMod
    {
        public DataFileSystem DataFileSystem = new DataFileSystem();
        public string DataDirectory { get { return DataFileSystem.Directory; } }
        public float Now { get { return (float)World.Now; } }
        public void NextTick(Action callback) { World.Post(callback); }
        /// <summary>OxideMod.OnSave: permission.SaveData() (Oxide.Core OxideMod.cs), what RustCore calls in OnServerSave.</summary>
        public void OnSave() { World.WritePermissions(); }
        public void LogException(string message, Exception exception)
        {
            World.Log("error", message + ": " + exception.GetType().Name + ": " + exception.Message);
        }
    }

    public static class Interface
    {
        public static OxideMod Oxide = new OxideMod();
    }
}

namespace Oxide.Core.Configuration
{
    public class DynamicConfigFile
    {
        private readonly string path;
        public DynamicConfigFile(string path) { this.path = path; }
        public bool Exists() { return File.Exists(path); }
        public T ReadObject<T>() { return JsonConvert.DeserializeObject<T>(File.ReadAllText(path)); }
        public void WriteObject<T>(T config, bool sync = false)
        {
            System.IO.Directory.CreateDirectory(Path.GetDirectoryName(path));
            File.WriteAllText(path, JsonConvert.SerializeObject(config, Formatting.Indented));
        }
    }
}

namespace Oxide.Core.Libraries
{
    public enum RequestMethod { DELETE, GET, PATCH, POST, PUT }

    public class WebRequests
    {
        public void Enqueue(string url, string body, Action<int, string> callback, Oxide.Core.Plugins.Plugin owner,
            RequestMethod method = RequestMethod.GET, Dictionary<string, string> headers = null, float timeout = 0f)
        {
            World.Requested(new Uri(url).AbsolutePath);
            if (World.Responder != null)
            {
                // bench/plugin: a site answering in-process, so only the plugin's own work is timed.
                World.BeginRequest();
                var answer = World.Responder(new Uri(url).AbsolutePath, body, headers);
                World.Post(() =>
                {
                    try { callback(answer.Key, answer.Value); }
                    catch (Exception e) { Interface.Oxide.LogException("Web request callback raised an exception", e); }
                    finally { World.EndRequest(); }
                });
                return;
            }
            World.BeginRequest();
            ThreadPool.QueueUserWorkItem(_ =>
            {
                var code = 0;
                string text;
                try
                {
                    var request = (HttpWebRequest)System.Net.WebRequest.Create(url);
                    request.Method = method.ToString();
                    request.Proxy = null;
                    request.KeepAlive = false;
                    request.Timeout = (int)Math.Round((timeout > 0f ? timeout : 30f) * 1000f);
                    if (headers != null)
                    {
                        foreach (var header in headers)
                        {
                            if (header.Key.Equals("Content-Type", StringComparison.OrdinalIgnoreCase)) request.ContentType = header.Value;
                            else request.Headers[header.Key] = header.Value;
                        }
                    }
                    if (body != null)
                    {
                        var data = Encoding.UTF8.GetBytes(body);
                        request.ContentLength = data.Length;
                        using (var stream = request.GetRequestStream()) stream.Write(data, 0, data.Length);
                    }
                    using (var response = (HttpWebResponse)request.GetResponse())
                    using (var reader = new StreamReader(response.GetResponseStream()))
                    {
                        text = reader.ReadToEnd();
                        code = (int)response.StatusCode;
                    }
                }
                catch (WebException e)
                {
                    text = e.Message.Trim('\r', '\n', ' ');
                    var response = e.Response as HttpWebResponse;
                    if (response != null)
                    {
                        try
                        {
                            using (var reader = new StreamReader(response.GetResponseStream())) text = reader.ReadToEnd();
                        }
                        catch (Exception)
                        {
                            // as Oxide: keep the exception's text
                        }
                        code = (int)response.StatusCode;
                    }
                }
                catch (Exception e)
                {
                    text = e.Message.Trim('\r', '\n', ' ');
                }
                World.Emit(new Dictionary<string, object> { ["ev"] = "request", ["path"] = new Uri(url).AbsolutePath, ["code"] = code });
                // As in Oxide: the callback runs on the main thread; an exception in it is logged.
                World.Post(() =>
                {
                    try { callback(code, text); }
                    catch (Exception e) { Interface.Oxide.LogException("Web request callback raised an exception", e); }
                    finally { World.EndRequest(); }
                });
            });
        }
    }

    /// <summary>Oxide's UserData (Permission.cs): the user's own permissions and the groups they are in, both case-insensitive.</summary>
    public class UserData
    {
        public string LastSeenNickname { get; set; } = "Unnamed";
        public HashSet<string> Perms { get; set; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        public HashSet<string> Groups { get; set; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
    }

    /// <summary>Oxide's GroupData (Permission.cs): a group's own permissions and its parent group.</summary>
    public class GroupData
    {
        public string Title { get; set; } = string.Empty;
        public int Rank { get; set; }
        public HashSet<string> Perms { get; set; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        public string ParentGroup { get; set; } = string.Empty;
    }

    /// <summary>
    /// Oxide's permission library, rule for rule, read from OxideMod/Oxide.Core src/Libraries/Permission.cs
    /// (commit 64f9932b5a29ca2829da21a047b331ca0a69dc30). What matters for deliveries:
    /// - A user holds a permission when it is among their own (UserData.Perms) or a group they are in holds it,
    ///   a group holding it when it is among the group's own or its parent group holds it, up the chain:
    ///   UserHasPermission: `if (userData.Perms.Contains(permission, ...)) return true; return GroupsHavePermission(userData.Groups, permission);`
    ///   GroupHasPermission: `return groupData.Perms.Contains(permission, ...) || GroupHasPermission(groupData.ParentGroup, permission);`
    /// - Wildcards are expanded when granted, never when checked: granting `kits.*` (or `*`) adds every
    ///   permission registered at that moment whose name starts with `kits.` (or all of them) to the user's or
    ///   group's own set (GrantUserPermission / GrantGroupPermission: `permissions.Where(p => p.StartsWith(permission.TrimEnd('*'), ...))`);
    ///   a permission registered later is not held. Revoking `kits.*` removes every own permission with that
    ///   prefix (`userData.Perms.RemoveWhere(p => p.StartsWith(...))`), `*` clears them all.
    /// - A wildcard "exists" when some registered permission matches it (PermissionExists).
    /// - Revoking a user's permission touches only the user's own set: a group's stays (RevokeUserPermission).
    /// - Names are compared ignoring case (StringComparer.OrdinalIgnoreCase throughout).
    /// Oxide keeps all this in memory and writes it (SaveData: oxide.users.data, oxide.groups.data) on the
    /// server's save (OnServerSave) and at shutdown; so does this stand-in (World.WritePermissions), and a crash
    /// restarts it from the last save.
    /// Every change to a user emits an event ("perm" for a user's own permission, "group" for membership)
    /// and to a group ("group_perm", "group_parent"), so a test sees exactly what changed.
    /// </summary>
    public class Permission
    {
        private readonly HashSet<string> registered = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        private readonly Dictionary<string, UserData> usersData = new Dictionary<string, UserData>(StringComparer.OrdinalIgnoreCase);
        private readonly Dictionary<string, GroupData> groupsData = new Dictionary<string, GroupData>(StringComparer.OrdinalIgnoreCase);

        private static void Emit(string ev, string op, string key, string id, string what, string value)
        {
            World.Emit(new Dictionary<string, object> { ["ev"] = ev, ["op"] = op, [key] = id, [what] = value });
        }

        // Registering

        public void RegisterPermission(string name, Oxide.Core.Plugins.Plugin owner)
        {
            if (string.IsNullOrEmpty(name)) return;
            registered.Add(name);
        }

        /// <summary>Oxide: `*` exists once anything is registered; `prefix*` when a registered name starts with the prefix.</summary>
        public bool PermissionExists(string name, Oxide.Core.Plugins.Plugin owner = null)
        {
            if (string.IsNullOrEmpty(name)) return false;
            if (registered.Count > 0)
            {
                if (name == "*") return true;
                if (name.EndsWith("*", StringComparison.Ordinal)) return Matching(name).Count > 0;
            }
            return registered.Contains(name);
        }

        public string[] GetPermissions() { return new List<string>(registered).ToArray(); }

        /// <summary>The registered permissions a wildcard stands for (all for `*`), as Oxide expands it when granting.</summary>
        private List<string> Matching(string wildcard)
        {
            var prefix = wildcard.TrimEnd('*');
            var found = new List<string>();
            foreach (var name in registered)
            {
                if (wildcard == "*" || name.StartsWith(prefix, StringComparison.OrdinalIgnoreCase)) found.Add(name);
            }
            return found;
        }

        // Users

        public bool UserExists(string id) { return usersData.ContainsKey(id); }

        /// <summary>Oxide: the user's record, created empty the first time it is asked for.</summary>
        public UserData GetUserData(string id)
        {
            UserData data;
            if (!usersData.TryGetValue(id, out data)) usersData.Add(id, data = new UserData());
            return data;
        }

        public bool UserHasPermission(string id, string perm)
        {
            if (string.IsNullOrEmpty(perm)) return false;
            if (id == "server_console") return true;
            var data = GetUserData(id);
            if (data.Perms.Contains(perm)) return true;
            foreach (var group in data.Groups)
            {
                if (GroupHasPermission(group, perm)) return true;
            }
            return false;
        }

        public void GrantUserPermission(string id, string perm, Oxide.Core.Plugins.Plugin owner)
        {
            if (!PermissionExists(perm, owner)) return; // Oxide: an unregistered permission is not granted
            var data = GetUserData(id);
            var names = perm.EndsWith("*", StringComparison.Ordinal) ? Matching(perm) : new List<string> { perm };
            foreach (var name in names)
            {
                if (data.Perms.Add(name)) Emit("perm", "grant", "steam_id", id, "perm", name);
            }
        }

        public void RevokeUserPermission(string id, string perm)
        {
            if (string.IsNullOrEmpty(perm)) return;
            var data = GetUserData(id);
            foreach (var name in new List<string>(data.Perms))
            {
                var matches = perm == "*" || (perm.EndsWith("*", StringComparison.Ordinal)
                    ? name.StartsWith(perm.TrimEnd('*'), StringComparison.OrdinalIgnoreCase)
                    : name.Equals(perm, StringComparison.OrdinalIgnoreCase));
                if (matches && data.Perms.Remove(name)) Emit("perm", "revoke", "steam_id", id, "perm", name);
            }
        }

        /// <summary>Oxide: the user's own permissions and those of the groups they are in (not the groups' parents).</summary>
        public string[] GetUserPermissions(string id)
        {
            var data = GetUserData(id);
            var all = new HashSet<string>(data.Perms, StringComparer.OrdinalIgnoreCase);
            foreach (var group in data.Groups) all.UnionWith(GetGroupPermissions(group));
            return new List<string>(all).ToArray();
        }

        public string[] GetUserGroups(string id) { return new List<string>(GetUserData(id).Groups).ToArray(); }

        public bool UserHasGroup(string id, string name)
        {
            if (!GroupExists(name)) return false;
            return GetUserData(id).Groups.Contains(name);
        }

        public void AddUserGroup(string id, string name)
        {
            if (!GroupExists(name)) return; // Oxide: nothing happens for an unknown group
            if (GetUserData(id).Groups.Add(name)) Emit("group", "add", "steam_id", id, "group", name);
        }

        public void RemoveUserGroup(string id, string name)
        {
            if (!GroupExists(name)) return;
            var data = GetUserData(id);
            if (name == "*")
            {
                foreach (var group in new List<string>(data.Groups)) Emit("group", "remove", "steam_id", id, "group", group);
                data.Groups.Clear();
                return;
            }
            if (data.Groups.Remove(name)) Emit("group", "remove", "steam_id", id, "group", name);
        }

        // Groups

        /// <summary>Oxide: `*` counts as an existing group (it stands for all of a user's groups in RemoveUserGroup).</summary>
        public bool GroupExists(string name) { return !string.IsNullOrEmpty(name) && (name == "*" || groupsData.ContainsKey(name)); }

        public string[] GetGroups() { return new List<string>(groupsData.Keys).ToArray(); }

        public bool CreateGroup(string name, string title, int rank)
        {
            if (GroupExists(name) || string.IsNullOrEmpty(name)) return false;
            groupsData.Add(name, new GroupData { Title = title, Rank = rank });
            return true;
        }

        /// <summary>Oxide: the group goes, its children lose their parent, its members lose it.</summary>
        public bool RemoveGroup(string name)
        {
            if (!GroupExists(name)) return false;
            if (groupsData.Remove(name))
            {
                foreach (var child in groupsData.Values)
                {
                    if (string.Equals(child.ParentGroup, name, StringComparison.OrdinalIgnoreCase)) child.ParentGroup = string.Empty;
                }
            }
            foreach (var pair in usersData)
            {
                if (pair.Value.Groups.Remove(name)) Emit("group", "remove", "steam_id", pair.Key, "group", name);
            }
            return true;
        }

        public bool GroupHasPermission(string name, string perm)
        {
            GroupData data;
            if (!GroupExists(name) || string.IsNullOrEmpty(perm) || !groupsData.TryGetValue(name, out data)) return false;
            return data.Perms.Contains(perm) || GroupHasPermission(data.ParentGroup, perm);
        }

        /// <summary>Oxide: the group's own permissions, with its parents' when asked.</summary>
        public string[] GetGroupPermissions(string name, bool parents = false)
        {
            GroupData data;
            if (!GroupExists(name) || !groupsData.TryGetValue(name, out data)) return new string[0];
            var all = new HashSet<string>(data.Perms, StringComparer.OrdinalIgnoreCase);
            if (parents) all.UnionWith(GetGroupPermissions(data.ParentGroup, true));
            return new List<string>(all).ToArray();
        }

        public void GrantGroupPermission(string name, string perm, Oxide.Core.Plugins.Plugin owner)
        {
            GroupData data;
            if (!PermissionExists(perm, owner) || !GroupExists(name) || !groupsData.TryGetValue(name, out data)) return;
            var names = perm.EndsWith("*", StringComparison.Ordinal) ? Matching(perm) : new List<string> { perm };
            foreach (var added in names)
            {
                if (data.Perms.Add(added)) Emit("group_perm", "grant", "group", name, "perm", added);
            }
        }

        public void RevokeGroupPermission(string name, string perm)
        {
            GroupData data;
            if (!GroupExists(name) || string.IsNullOrEmpty(perm) || !groupsData.TryGetValue(name, out data)) return;
            foreach (var held in new List<string>(data.Perms))
            {
                var matches = perm == "*" || (perm.EndsWith("*", StringComparison.Ordinal)
                    ? held.StartsWith(perm.TrimEnd('*'), StringComparison.OrdinalIgnoreCase)
                    : held.Equals(perm, StringComparison.OrdinalIgnoreCase));
                if (matches && data.Perms.Remove(held)) Emit("group_perm", "revoke", "group", name, "perm", held);
            }
        }

        public string GetGroupParent(string name)
        {
            GroupData data;
            return GroupExists(name) && groupsData.TryGetValue(name, out data) ? data.ParentGroup : string.Empty;
        }

        /// <summary>Oxide: an empty parent clears it; an unknown parent, the group itself or a loop is refused.</summary>
        public bool SetGroupParent(string name, string parent)
        {
            GroupData data;
            if (!GroupExists(name) || !groupsData.TryGetValue(name, out data)) return false;
            if (string.IsNullOrEmpty(parent))
            {
                data.ParentGroup = null;
                return true;
            }
            if (!GroupExists(parent) || name.Equals(parent)) return false;
            if (!string.IsNullOrEmpty(data.ParentGroup) && data.ParentGroup.Equals(parent)) return true;
            if (HasCircularParent(name, parent)) return false;
            data.ParentGroup = parent;
            Emit("group_parent", "set", "group", name, "parent", parent);
            return true;
        }

        private bool HasCircularParent(string name, string parent)
        {
            GroupData data;
            if (!groupsData.TryGetValue(parent, out data)) return false;
            var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { name, parent };
            while (!string.IsNullOrEmpty(data.ParentGroup))
            {
                if (!seen.Add(data.ParentGroup)) return true;
                if (!groupsData.TryGetValue(data.ParentGroup, out data)) return false;
            }
            return false;
        }
    }

    /// <summary>
    /// Oxide's lang library, read from OxideMod/Oxide.Core src/Libraries/Lang.cs (commit 5e3995c38b082e5119ecf1b2fc17bab162e1af13):
    /// - RegisterMessages writes oxide/lang/&lt;lang&gt;/&lt;Plugin&gt;.json when there is none. When the file exists, it is
    ///   merged (MergeMessages): keys the plugin has and the file lacks are added, keys the plugin no longer has are
    ///   removed, and every text already in the file is kept, so an owner's translation or rewording survives
    ///   plugin loads and updates; the file is written only when the merge changed it.
    /// - GetMessage reads the file of the player's language (else the server's, else "en") once and caches it
    ///   until the plugin is unloaded (plugin_OnRemovedFromManager); on that first read the "en" file's keys are
    ///   merged into it the same way. A key with no text answers the key itself.
    /// </summary>
    public class Lang
    {
        private const string DefaultLang = "en";
        private readonly Dictionary<string, Dictionary<string, string>> langFiles = new Dictionary<string, Dictionary<string, string>>();
        private readonly Dictionary<string, string> languages = new Dictionary<string, string>();
        public string ServerLanguage = DefaultLang;

        private static string LangDirectory { get { return Path.Combine(World.Root, "oxide", "lang"); } }

        private static string FileOf(string plugin, string lang) { return Path.Combine(lang, plugin + ".json"); }

        public void RegisterMessages(Dictionary<string, string> messages, Oxide.Core.Plugins.Plugin plugin, string lang = DefaultLang)
        {
            if (messages == null || string.IsNullOrEmpty(lang) || plugin == null) return;
            var file = FileOf(plugin.Name, lang);
            var existing = GetMessageFile(plugin.Name, lang);
            bool changed;
            if (existing == null)
            {
                langFiles.Remove(file);
                langFiles.Add(file, messages);
                changed = true;
            }
            else
            {
                changed = MergeMessages(existing, messages);
                messages = existing;
            }
            if (!changed) return;
            Directory.CreateDirectory(Path.Combine(LangDirectory, lang));
            File.WriteAllText(Path.Combine(LangDirectory, file), JsonConvert.SerializeObject(messages, Formatting.Indented));
        }

        public void SetLanguage(string lang, string userId) { languages[userId] = lang; }

        public string GetLanguage(string userId = null)
        {
            string lang;
            return !string.IsNullOrEmpty(userId) && languages.TryGetValue(userId, out lang) ? lang : ServerLanguage;
        }

        public string GetMessage(string key, Oxide.Core.Plugins.Plugin plugin, string userId = null)
        {
            if (string.IsNullOrEmpty(key) || plugin == null) return key;
            var lang = GetLanguage(userId);
            var file = FileOf(plugin.Name, lang);
            Dictionary<string, string> messages;
            if (!langFiles.TryGetValue(file, out messages))
            {
                messages = GetMessageFile(plugin.Name, lang) ?? GetMessageFile(plugin.Name, ServerLanguage) ?? GetMessageFile(plugin.Name, DefaultLang);
                if (messages == null)
                {
                    World.Log("warn", "Plugin '" + plugin.Name + "' is using the Lang API but has no messages registered");
                    return key;
                }
                var defaults = GetMessageFile(plugin.Name, DefaultLang);
                if (defaults != null && MergeMessages(messages, defaults) && File.Exists(Path.Combine(LangDirectory, file)))
                    File.WriteAllText(Path.Combine(LangDirectory, file), JsonConvert.SerializeObject(messages, Formatting.Indented));
                langFiles.Add(file, messages);
            }
            string text;
            return messages.TryGetValue(key, out text) ? text : key;
        }

        /// <summary>Oxide forgets a plugin's cached files when the plugin is unloaded; the next load reads them again.</summary>
        public void PluginUnloaded(Oxide.Core.Plugins.Plugin plugin)
        {
            foreach (var file in new List<string>(langFiles.Keys))
            {
                if (Path.GetFileName(file) == plugin.Name + ".json") langFiles.Remove(file);
            }
        }

        private static Dictionary<string, string> GetMessageFile(string plugin, string lang)
        {
            if (string.IsNullOrEmpty(plugin)) return null;
            foreach (var invalid in Path.GetInvalidFileNameChars()) lang = lang.Replace(invalid, '_');
            var path = Path.Combine(LangDirectory, FileOf(plugin, lang));
            return File.Exists(path) ? JsonConvert.DeserializeObject<Dictionary<string, string>>(File.ReadAllText(path)) : null;
        }

        /// <summary>Oxide's MergeMessages: adds what is missing, drops what the plugin no longer has, keeps every existing text.</summary>
        private static bool MergeMessages(Dictionary<string, string> existing, Dictionary<string, string> messages)
        {
            var changed = false;
            foreach (var message in messages)
            {
                if (existing.ContainsKey(message.Key)) continue;
                existing.Add(message.Key, message.Value);
                changed = true;
            }
            foreach (var key in new List<string>(existing.Keys))
            {
                if (messages.ContainsKey(key)) continue;
                existing.Remove(key);
                changed = true;
            }
            return changed;
        }
    }
}

namespace Oxide.Core.Plugins
{
    public abstract class Plugin
    {
        public string Name { get; set; }
        public string Title { get; protected set; }
        protected Oxide.Core.Configuration.DynamicConfigFile Config { get; private set; }

        protected Plugin()
        {
            Name = GetType().Name;
            Config = new Oxide.Core.Configuration.DynamicConfigFile(Path.Combine(World.Root, "oxide", "config", Name + ".json"));
        }

        // Oxide: the config is loaded before Init; a missing file gets the defaults, saved.
        protected virtual void LoadConfig()
        {
            if (!Config.Exists())
            {
                LoadDefaultConfig();
                SaveConfig();
            }
        }

        protected virtual void LoadDefaultConfig() { }
        protected virtual void SaveConfig() { }

        // Oxide (Plugin.HandleAddedToManager, src/Plugins/Plugin.cs): after the config and before Init, a plugin's
        // default messages are registered: `if (HasMessages) { LoadDefaultMessages(); }`. The harness's loader calls it there.
        protected virtual void LoadDefaultMessages() { }
    }
}

namespace Oxide.Plugins
{
    [AttributeUsage(AttributeTargets.Class)]
    public class InfoAttribute : Attribute
    {
        public InfoAttribute(string title, string author, string version) { }
    }

    [AttributeUsage(AttributeTargets.Class)]
    public class DescriptionAttribute : Attribute
    {
        public DescriptionAttribute(string description) { }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public class ChatCommandAttribute : Attribute
    {
        public string Command { get; private set; }
        public ChatCommandAttribute(string command) { Command = command; }
    }

    /// <summary>Oxide's timer: virtual time (World.Now), Oxide's rule for a callback that throws.</summary>
    public class Timer
    {
        internal double ExpiresAt;
        internal readonly float Delay;
        internal int Repetitions; // 0: forever
        internal readonly Action Callback;
        public bool Destroyed { get; private set; }

        internal Timer(float delay, int repetitions, Action callback)
        {
            Delay = delay;
            Repetitions = repetitions;
            Callback = callback;
            ExpiresAt = World.Now + delay;
        }

        public void Destroy() { Destroyed = true; }

        internal void Fire()
        {
            if (Repetitions > 0 && --Repetitions == 0) Destroyed = true;
            else ExpiresAt += Delay;
            try
            {
                Callback();
            }
            catch (Exception e)
            {
                // Oxide.Core Timer.FireCallback: the timer is destroyed and the exception logged.
                Destroy();
                Oxide.Core.Interface.Oxide.LogException(string.Format("Failed to run a {0:0.00} timer", Delay), e);
            }
        }
    }

    public class PluginTimers
    {
        public Timer Every(float interval, Action callback) { return World.AddTimer(new Timer(interval, 0, callback)); }
        public Timer Once(float interval, Action callback) { return World.AddTimer(new Timer(interval, 1, callback)); }
        public Timer Repeat(float interval, int repeats, Action callback) { return World.AddTimer(new Timer(interval, repeats, callback)); }
    }

    public abstract class CSharpPlugin : Oxide.Core.Plugins.Plugin
    {
        protected PluginTimers timer = new PluginTimers();
        protected Oxide.Core.Libraries.WebRequests webrequest = new Oxide.Core.Libraries.WebRequests();
        protected Oxide.Core.Libraries.Lang lang = World.Lang;
        protected Oxide.Core.Libraries.Permission permission = World.Permission;
        protected void Puts(string format, params object[] args) { World.Log("info", "[" + Name + "] " + Format(format, args)); }
        protected void PrintWarning(string format, params object[] args) { World.Log("warn", "[" + Name + "] " + Format(format, args)); }
        protected void PrintError(string format, params object[] args) { World.Log("error", "[" + Name + "] " + Format(format, args)); }
        protected void NextTick(Action callback) { World.Post(callback); }

        private static string Format(string format, object[] args) { return args.Length == 0 ? format : string.Format(format, args); }
    }

    public abstract class RustPlugin : CSharpPlugin
    {
        protected void SendReply(BasePlayer player, string format, params object[] args)
        {
            player.ChatMessage(args.Length == 0 ? format : string.Format(format, args));
        }
    }
}
