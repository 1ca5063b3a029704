// The harness's game world: virtual time and timers, the main thread's queue, the players, the
// console, the files on disk and the faults a test can inject. Everything the plugin does that a
// test checks is printed on stdout as one JSON object per line (plugins/oxide/harness/Main.cs reads
// the test's instructions from stdin). Never shipped.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using Newtonsoft.Json;
using Oxide.Core.Libraries;

namespace Harness
{
    public static class World
    {
        public static string Root = Directory.GetCurrentDirectory();
        public static double Now;
        public static readonly Lang Lang = new Lang();
        public static readonly Permission Permission = new Permission();

        private static readonly object gate = new object();
        private static readonly Queue<Action> mainQueue = new Queue<Action>();
        private static readonly List<Oxide.Plugins.Timer> timers = new List<Oxide.Plugins.Timer>();
        private static int inFlight;

        // Faults
        public static bool FailWrites;
        public static int CrashOnWrite; // the Nth next data-file write is cut in half, then the process dies
        public static string CrashOnGive; // a give of this shortname happens, then the process dies
        public static readonly HashSet<string> FaultsOnce = new HashSet<string>();

        public static void Emit(Dictionary<string, object> evt)
        {
            var line = JsonConvert.SerializeObject(evt);
            lock (gate)
            {
                Console.Out.WriteLine(line);
                Console.Out.Flush();
            }
        }

        public static void Log(string level, string text)
        {
            Emit(new Dictionary<string, object> { ["ev"] = "log", ["level"] = level, ["text"] = text });
        }

        public static void Die(string why)
        {
            Emit(new Dictionary<string, object> { ["ev"] = "died", ["why"] = why });
            Environment.Exit(137);
        }

        public static void MaybeFault(string name)
        {
            lock (gate)
            {
                if (!FaultsOnce.Remove(name)) return;
            }
            throw new InvalidOperationException("Collection was modified; enumeration operation may not execute (" + name + ")");
        }

        // Main thread

        public static void Post(Action action)
        {
            lock (gate) mainQueue.Enqueue(action);
        }

        public static void BeginRequest() { Interlocked.Increment(ref inFlight); }
        public static void EndRequest() { Interlocked.Decrement(ref inFlight); }

        public static Oxide.Plugins.Timer AddTimer(Oxide.Plugins.Timer timer)
        {
            timers.Add(timer);
            return timer;
        }

        /// <summary>Runs queued callbacks until no web request is in flight and the queue is empty.</summary>
        public static void Settle(TimeSpan limit)
        {
            var until = DateTime.UtcNow + limit;
            while (DateTime.UtcNow < until)
            {
                Action next = null;
                lock (gate)
                {
                    if (mainQueue.Count > 0) next = mainQueue.Dequeue();
                }
                if (next != null)
                {
                    next();
                    continue;
                }
                if (Volatile.Read(ref inFlight) == 0) return;
                Thread.Sleep(5);
            }
            Log("warn", "harness: still waiting for web requests after " + limit.TotalSeconds + " s");
        }

        /// <summary>Moves virtual time forward, firing due timers in order and settling after each.</summary>
        public static void Advance(double seconds, TimeSpan settleLimit)
        {
            var target = Now + seconds;
            while (true)
            {
                timers.RemoveAll(t => t.Destroyed);
                Oxide.Plugins.Timer due = null;
                foreach (var t in timers)
                {
                    if (t.ExpiresAt <= target && (due == null || t.ExpiresAt < due.ExpiresAt)) due = t;
                }
                if (due == null) break;
                if (due.ExpiresAt > Now) Now = due.ExpiresAt;
                due.Fire();
                Settle(settleLimit);
            }
            Now = target;
            Settle(settleLimit);
        }

        public static int LiveTimers()
        {
            timers.RemoveAll(t => t.Destroyed);
            return timers.Count;
        }

        // Files

        private static int writes;

        public static void WriteDataFile(string path, string json)
        {
            if (FailWrites) throw new IOException("Disk full");
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            writes++;
            var bytes = Encoding.UTF8.GetBytes(json);
            // Like File.WriteAllText: truncate, then write; nothing forces it to disk.
            using (var stream = new FileStream(path, FileMode.Create, FileAccess.Write))
            {
                if (CrashOnWrite > 0 && --CrashOnWrite == 0)
                {
                    stream.Write(bytes, 0, bytes.Length / 2);
                    stream.Flush();
                    Die("crash while writing " + Path.GetFileName(path));
                }
                stream.Write(bytes, 0, bytes.Length);
            }
            Emit(new Dictionary<string, object> { ["ev"] = "write", ["file"] = Path.GetFileName(path) });
        }

        // Players

        public static BasePlayer Find(string steamId)
        {
            foreach (var player in BasePlayer.activePlayerList)
            {
                if (player.UserIDString == steamId) return player;
            }
            return null;
        }

        public static void EmitGive(BasePlayer player, string shortname, int amount, bool ok)
        {
            Emit(new Dictionary<string, object>
            {
                ["ev"] = "give", ["steam_id"] = player.UserIDString, ["item"] = shortname, ["amount"] = amount, ["ok"] = ok,
            });
            if (CrashOnGive != null && CrashOnGive.Equals(shortname, StringComparison.OrdinalIgnoreCase)) Die("crash after giving " + shortname);
        }

        // Console: the commands a catalog uses, with Rust's and Oxide's replies.

        private static readonly Regex Words = new Regex(@"\S+");

        public static string RunConsole(string line)
        {
            var parts = new List<string>();
            foreach (Match m in Words.Matches(line)) parts.Add(m.Value);
            if (parts.Count == 0) return "";
            var verb = parts[0].ToLowerInvariant();
            if (verb.StartsWith("o.")) verb = "oxide." + verb.Substring(2);
            switch (verb)
            {
                case "say":
                    ConVar.Chat.Broadcast(line.Substring(parts[0].Length).Trim(), "SERVER", "#eee", 0UL);
                    return "";
                case "inventory.giveto":
                {
                    if (parts.Count < 3) return "Usage: inventory.giveto <player> <item> <amount>";
                    var player = Find(parts[1]);
                    if (player == null) return "Couldn't find player!";
                    var definition = ItemManager.FindItemDefinition(parts[2]);
                    if (definition == null) return "Invalid item: " + parts[2];
                    int amount;
                    if (parts.Count < 4 || !int.TryParse(parts[3], out amount)) amount = 1;
                    var item = ItemManager.Create(definition, amount);
                    if (!player.inventory.GiveItem(item))
                    {
                        item.Remove();
                        return "Couldn't give item (inventory full?)";
                    }
                    return "Giving " + amount + " x " + definition.shortname + " to " + player.displayName;
                }
                case "oxide.usergroup":
                    if (parts.Count < 4) return "Usage: usergroup <add|remove> <username|id> <groupname>";
                    if (!Permission.GroupExists(parts[3])) return "Group '" + parts[3] + "' doesn't exist";
                    if (parts[1] == "add") { Permission.AddUserGroup(parts[2], parts[3]); return "Player '" + parts[2] + "' added to group: " + parts[3]; }
                    if (parts[1] == "remove") { Permission.RemoveUserGroup(parts[2], parts[3]); return "Player '" + parts[2] + "' removed from group: " + parts[3]; }
                    return "Usage: usergroup <add|remove> <username|id> <groupname>";
                case "oxide.group":
                    // Oxide.Rust's group command: add <name>, remove <name>, parent <name> <parent>.
                    if (parts.Count >= 3 && parts[1] == "add") { Permission.CreateGroup(parts[2], parts[2], 0); return "Group '" + parts[2] + "' created"; }
                    if (parts.Count >= 3 && parts[1] == "remove")
                        return Permission.RemoveGroup(parts[2]) ? "Group '" + parts[2] + "' deleted" : "Group '" + parts[2] + "' doesn't exist";
                    if (parts.Count >= 4 && parts[1] == "parent")
                    {
                        if (!Permission.GroupExists(parts[2])) return "Group '" + parts[2] + "' doesn't exist";
                        return Permission.SetGroupParent(parts[2], parts[3])
                            ? "Group '" + parts[2] + "' parent changed to '" + parts[3] + "'"
                            : "Group '" + parts[2] + "' parent could not be changed to '" + parts[3] + "'";
                    }
                    return "Usage: group <add|remove|set|parent> <name>";
                case "oxide.grant":
                    if (parts.Count < 4 || (parts[1] != "user" && parts[1] != "group")) return "Usage: grant <group|user> <name|id> <permission>";
                    if (!Permission.PermissionExists(parts[3])) return "Permission '" + parts[3] + "' doesn't exist";
                    if (parts[1] == "group")
                    {
                        if (!Permission.GroupExists(parts[2])) return "Group '" + parts[2] + "' doesn't exist";
                        Permission.GrantGroupPermission(parts[2], parts[3], null);
                        return "Group '" + parts[2] + "' granted permission '" + parts[3] + "'";
                    }
                    Permission.GrantUserPermission(parts[2], parts[3], null);
                    return "Player '" + parts[2] + "' granted permission '" + parts[3] + "'";
                case "oxide.revoke":
                    if (parts.Count < 4 || (parts[1] != "user" && parts[1] != "group")) return "Usage: revoke <group|user> <name|id> <permission>";
                    if (parts[1] == "group")
                    {
                        if (!Permission.GroupExists(parts[2])) return "Group '" + parts[2] + "' doesn't exist";
                        Permission.RevokeGroupPermission(parts[2], parts[3]);
                        return "Group '" + parts[2] + "' revoked permission '" + parts[3] + "'";
                    }
                    Permission.RevokeUserPermission(parts[2], parts[3]);
                    return "Player '" + parts[2] + "' revoked permission '" + parts[3] + "'";
                default:
                    return "Command '" + parts[0] + "' not found";
            }
        }
    }
}
