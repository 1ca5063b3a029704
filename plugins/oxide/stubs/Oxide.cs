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
            var json = JsonConvert.SerializeObject(Object, Formatting.Indented);
            World.WriteDataFile(PathOf(name), json);
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

    public class Permission
    {
        private readonly Dictionary<string, HashSet<string>> groups = new Dictionary<string, HashSet<string>>(StringComparer.OrdinalIgnoreCase);
        private readonly HashSet<string> registered = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        private readonly Dictionary<string, HashSet<string>> userPermissions = new Dictionary<string, HashSet<string>>();

        public bool GroupExists(string group) { return !string.IsNullOrEmpty(group) && groups.ContainsKey(group); }

        public bool CreateGroup(string group, string title, int rank)
        {
            if (GroupExists(group)) return false;
            groups[group] = new HashSet<string>();
            return true;
        }

        public bool UserHasGroup(string id, string name)
        {
            HashSet<string> members;
            return groups.TryGetValue(name ?? "", out members) && members.Contains(id);
        }

        public void AddUserGroup(string id, string name)
        {
            HashSet<string> members;
            if (!groups.TryGetValue(name ?? "", out members)) return; // Oxide: nothing happens for an unknown group
            if (members.Add(id)) World.Emit(new Dictionary<string, object> { ["ev"] = "group", ["op"] = "add", ["steam_id"] = id, ["group"] = name });
        }

        public void RemoveUserGroup(string id, string name)
        {
            HashSet<string> members;
            if (!groups.TryGetValue(name ?? "", out members)) return;
            if (members.Remove(id)) World.Emit(new Dictionary<string, object> { ["ev"] = "group", ["op"] = "remove", ["steam_id"] = id, ["group"] = name });
        }

        public void RegisterPermission(string name, Oxide.Core.Plugins.Plugin owner) { registered.Add(name); }

        public bool PermissionExists(string name, Oxide.Core.Plugins.Plugin owner = null) { return registered.Contains(name ?? ""); }

        public bool UserHasPermission(string id, string perm)
        {
            HashSet<string> granted;
            return userPermissions.TryGetValue(id, out granted) && granted.Contains(perm.ToLowerInvariant());
        }

        public void GrantUserPermission(string id, string perm, Oxide.Core.Plugins.Plugin owner)
        {
            if (!PermissionExists(perm)) return; // Oxide: an unregistered permission is not granted
            HashSet<string> granted;
            if (!userPermissions.TryGetValue(id, out granted)) userPermissions[id] = granted = new HashSet<string>();
            if (granted.Add(perm.ToLowerInvariant())) World.Emit(new Dictionary<string, object> { ["ev"] = "perm", ["op"] = "grant", ["steam_id"] = id, ["perm"] = perm });
        }

        public void RevokeUserPermission(string id, string perm)
        {
            HashSet<string> granted;
            if (userPermissions.TryGetValue(id, out granted) && granted.Remove(perm.ToLowerInvariant()))
                World.Emit(new Dictionary<string, object> { ["ev"] = "perm", ["op"] = "revoke", ["steam_id"] = id, ["perm"] = perm });
        }
    }

    public class Lang
    {
        private readonly Dictionary<string, Dictionary<string, string>> messages = new Dictionary<string, Dictionary<string, string>>();
        private readonly Dictionary<string, string> languages = new Dictionary<string, string>();
        public string ServerLanguage = "en";

        public void RegisterMessages(Dictionary<string, string> messages, Oxide.Core.Plugins.Plugin plugin, string lang = "en")
        {
            this.messages[lang] = new Dictionary<string, string>(messages);
            // Oxide writes oxide/lang/<lang>/<plugin>.json, where owners translate; the harness keeps it too.
            var path = Path.Combine(World.Root, "oxide", "lang", lang, plugin.Name + ".json");
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            File.WriteAllText(path, JsonConvert.SerializeObject(messages, Formatting.Indented));
        }

        public void SetLanguage(string lang, string userId) { languages[userId] = lang; }

        public string GetLanguage(string userId = null)
        {
            string lang;
            return userId != null && languages.TryGetValue(userId, out lang) ? lang : ServerLanguage;
        }

        public string GetMessage(string key, Oxide.Core.Plugins.Plugin plugin, string userId = null)
        {
            Dictionary<string, string> table;
            string text;
            if (messages.TryGetValue(GetLanguage(userId), out table) && table.TryGetValue(key, out text)) return text;
            if (messages.TryGetValue("en", out table) && table.TryGetValue(key, out text)) return text;
            return key;
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
