// The harness's main loop: loads the real RustStoreDelivery plugin the way Oxide does (config,
// Init, OnServerInitialized), then follows instructions from stdin, one per line, and answers each
// with {"ev":"done"} after everything it set off has settled (web requests answered, callbacks run).
// tests/plugin/harness.ts drives it. Never shipped.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Reflection;
using Harness;
using Oxide.Plugins;

public static class HarnessMain
{
    const BindingFlags Any = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
    static readonly TimeSpan SettleLimit = TimeSpan.FromSeconds(30);
    static RustStoreDelivery plugin;
    /// <summary>Oxide.Rust calls OnServerInitialized(true) once the server has started, and (false) for a plugin loaded later (RustCore.cs:145, 168).</summary>
    static bool serverInitialized;

    static object Call(string hook, params object[] args)
    {
        var method = typeof(RustStoreDelivery).GetMethod(hook, Any);
        if (method == null || plugin == null) return null;
        // Oxide passes a hook's arguments to a method that takes them, and none to one declared without.
        if (method.GetParameters().Length == 0) args = new object[0];
        try
        {
            return method.Invoke(plugin, args);
        }
        catch (TargetInvocationException e)
        {
            // Oxide logs a hook's exception and goes on.
            World.Log("error", "Failed to call hook '" + hook + "': " + e.InnerException.GetType().Name + ": " + e.InnerException.Message);
            return null;
        }
    }

    static BasePlayer Player(string steamId)
    {
        var player = World.Find(steamId);
        if (player == null) throw new ArgumentException("no such player " + steamId);
        return player;
    }

    static void Fill(BasePlayer player, int free)
    {
        var stone = ItemManager.FindItemDefinition("stones");
        foreach (var container in new[] { player.inventory.containerMain, player.inventory.containerBelt })
            container.itemList.Clear();
        var toFill = player.inventory.containerMain.capacity + player.inventory.containerBelt.capacity - free;
        for (var i = 0; i < toFill; i++)
        {
            var target = i < player.inventory.containerMain.capacity ? player.inventory.containerMain : player.inventory.containerBelt;
            target.itemList.Add(new Item { info = stone, amount = stone.stackable });
        }
    }

    static void Handle(string[] words, string line)
    {
        switch (words[0])
        {
            case "load":
                plugin = new RustStoreDelivery();
                Call("LoadConfig");
                Call("LoadDefaultMessages"); // Oxide: Plugin.HandleAddedToManager, between the config and Init
                Call("Init");
                Call("OnServerInitialized", !serverInitialized);
                serverInitialized = true;
                World.Settle(SettleLimit);
                break;
            case "unload":
                Call("Unload");
                World.Lang.PluginUnloaded(plugin);
                plugin = null;
                World.Settle(SettleLimit);
                break;
            case "save":
                // Rust's automated save now (as every server.saveinterval), run to its end: hook, cache frames,
                // serialization, disk, "Saving complete" (World.cs), with timers and web answers in between.
                World.RunSaveUntil("", SettleLimit);
                break;
            case "save-to":
                // An automated save (started now unless one runs) run until it reaches a phase: "cache" (the hook
                // has fired, the caches are being built), "serialized" (the buffer holds the world, nothing on
                // disk yet) or "written" (the save is on disk, IsSaving still true). The test may then kill.
                World.RunSaveUntil(words[1], SettleLimit);
                break;
            case "save-config":
                if (words[1] != "cache") throw new ArgumentException("unknown save setting " + words[1]);
                World.SaveCacheSeconds = double.Parse(words[2], System.Globalization.CultureInfo.InvariantCulture);
                break;
            case "advance":
                World.Advance(double.Parse(words[1], System.Globalization.CultureInfo.InvariantCulture), SettleLimit);
                break;
            case "wait-log":
            {
                // Frames pass (the game's clock stands still) until the plugin logs a line with the text, or the
                // limit in seconds: what only a socket's thread can set off, such as a ring.
                var text = line.Substring(line.IndexOf(words[1], "wait-log".Length, StringComparison.Ordinal) + words[1].Length + 1);
                var from = World.LogCount();
                var found = World.RunFramesUntil(() => World.LoggedSince(from, text),
                    TimeSpan.FromSeconds(double.Parse(words[1], System.Globalization.CultureInfo.InvariantCulture)));
                World.Settle(SettleLimit);
                World.Emit(new Dictionary<string, object> { ["ev"] = "waited", ["text"] = text, ["found"] = found });
                break;
            }
            case "wait-request":
            {
                // Frames pass (the game's clock stands still) until the plugin makes a web request to the path, or the
                // limit in seconds; then everything it set off settles.
                var from = World.RequestCount();
                var found = World.RunFramesUntil(() => World.RequestedSince(from, words[2]),
                    TimeSpan.FromSeconds(double.Parse(words[1], System.Globalization.CultureInfo.InvariantCulture)));
                World.Settle(SettleLimit);
                World.Emit(new Dictionary<string, object> { ["ev"] = "waited", ["path"] = words[2], ["found"] = found });
                break;
            }
            case "join":
            {
                World.Lang.SetLanguage(words[2], words[1]);
                var player = World.Connect(words[1], words.Length > 3 ? words[3] : words[1]);
                Call("OnPlayerConnected", player);
                World.Settle(SettleLimit);
                break;
            }
            case "leave":
            {
                var player = Player(words[1]);
                World.Disconnect(player);
                Call("OnPlayerDisconnected", player, "Disconnected");
                World.Settle(SettleLimit);
                break;
            }
            case "flag":
            {
                var player = Player(words[1]);
                player.dead = words[2] == "dead";
                player.playerFlags = BasePlayer.PlayerFlags.Connected;
                if (words[2] == "sleeping") player.playerFlags |= BasePlayer.PlayerFlags.Sleeping;
                if (words[2] == "wounded") player.playerFlags |= BasePlayer.PlayerFlags.Wounded;
                if (words[2] == "connecting") player.playerFlags |= BasePlayer.PlayerFlags.ReceivingSnapshot;
                break;
            }
            case "fill":
                Fill(Player(words[1]), int.Parse(words[2]));
                break;
            case "inventory":
            {
                // What the player holds, online or asleep, and what lies on the ground for them.
                var counts = new Dictionary<string, int>();
                var player = World.FindAnywhere(words[1]);
                if (player == null) throw new ArgumentException("no such player " + words[1]);
                Dictionary<string, int> ground;
                if (World.Ground.TryGetValue(words[1], out ground))
                    foreach (var pair in ground) counts[pair.Key] = (counts.ContainsKey(pair.Key) ? counts[pair.Key] : 0) + pair.Value;
                foreach (var container in new[] { player.inventory.containerMain, player.inventory.containerBelt })
                    foreach (var item in container.itemList)
                        counts[item.info.shortname] = (counts.ContainsKey(item.info.shortname) ? counts[item.info.shortname] : 0) + item.amount;
                World.Emit(new Dictionary<string, object> { ["ev"] = "inventory", ["steam_id"] = words[1], ["items"] = counts });
                break;
            }
            case "console":
                World.Emit(new Dictionary<string, object> { ["ev"] = "reply", ["text"] = World.RunServerCommand(line.Substring("console ".Length)) });
                World.Settle(SettleLimit);
                break;
            case "usergroup":
                World.Emit(new Dictionary<string, object> { ["ev"] = "usergroup", ["steam_id"] = words[1], ["group"] = words[2], ["member"] = World.Permission.UserHasGroup(words[1], words[2]) });
                break;
            case "userperm":
                World.Emit(new Dictionary<string, object> { ["ev"] = "userperm", ["steam_id"] = words[1], ["perm"] = words[2], ["has"] = World.Permission.UserHasPermission(words[1], words[2]) });
                break;
            case "permission":
                World.Permission.RegisterPermission(words[1], null);
                break;
            case "holds":
            {
                // What Oxide answers about a player and a permission: held at all (own or through a group and its
                // parents), held as the player's own, and the player's groups.
                var data = World.Permission.GetUserData(words[1]);
                World.Emit(new Dictionary<string, object>
                {
                    ["ev"] = "holds", ["steam_id"] = words[1], ["perm"] = words[2],
                    ["holds"] = World.Permission.UserHasPermission(words[1], words[2]),
                    ["own"] = data.Perms.Contains(words[2]),
                    ["groups"] = new List<string>(data.Groups),
                });
                break;
            }
            case "chat":
            {
                var player = Player(words[1]);
                foreach (var method in typeof(RustStoreDelivery).GetMethods(Any))
                {
                    foreach (ChatCommandAttribute attribute in method.GetCustomAttributes(typeof(ChatCommandAttribute), false))
                    {
                        if (attribute.Command != words[2]) continue;
                        var args = new string[Math.Max(0, words.Length - 3)];
                        Array.Copy(words, 3, args, 0, args.Length);
                        method.Invoke(plugin, new object[] { player, words[2], args });
                    }
                }
                World.Settle(SettleLimit);
                break;
            }
            case "fault":
                switch (words[1])
                {
                    case "fail-writes": World.FailWrites = words[2] == "on"; break;
                    case "crash-on-write": World.CrashOnWrite = int.Parse(words[2]); break;
                    case "power-loss-on-write": World.PowerLossOnWrite = int.Parse(words[2]); break;
                    case "crash-on-give": World.CrashOnGive = words[2]; break;
                    case "give-partly": World.GivePartly = words[2]; break;
                    case "once": World.FaultsOnce.Add(words[2]); break;
                    case "world-write-fails": World.WorldWriteFails = true; break;
                    case "crash-in-world-write": World.CrashInWorldWrite = true; break;
                    default: throw new ArgumentException("unknown fault " + words[1]);
                }
                break;
            case "timers":
                World.Emit(new Dictionary<string, object> { ["ev"] = "timers", ["count"] = World.LiveTimers() });
                break;
            case "quit":
                // The server's "quit": plugins hear OnServerShutdown and are unloaded, Oxide and Rust save.
                World.Quit();
                break;
            default:
                throw new ArgumentException("unknown instruction " + words[0]);
        }
    }

    /// <summary>
    /// A game server whose machine trusts the site's certificate, as an owner's machine trusts one that
    /// chains to a public authority. The test proxy's certificate comes from Caddy's internal CA, whose
    /// ECDSA keys Debian's mono can't decode to build a chain, so the certificate itself is pinned: the
    /// one in `path` (PEM, leaf first), with the host name checked as usual. The plugin's request is unchanged.
    /// </summary>
    static void TrustCertificate(string path)
    {
        var pem = File.ReadAllText(path);
        const string begin = "-----BEGIN CERTIFICATE-----";
        var from = pem.IndexOf(begin, StringComparison.Ordinal) + begin.Length;
        var pinned = Convert.FromBase64String(pem.Substring(from, pem.IndexOf("-----END CERTIFICATE-----", from, StringComparison.Ordinal) - from));
        ServicePointManager.ServerCertificateValidationCallback = (sender, certificate, chain, errors) =>
        {
            if (errors == SslPolicyErrors.None) return true;
            if (errors != SslPolicyErrors.RemoteCertificateChainErrors || certificate == null) return false;
            var raw = certificate.GetRawCertData();
            if (raw.Length != pinned.Length) return false;
            for (var i = 0; i < raw.Length; i++) if (raw[i] != pinned[i]) return false;
            return true;
        };
    }

    public static int Main(string[] args)
    {
        World.Root = args.Length > 0 ? args[0] : Environment.CurrentDirectory;
        // Oxide calls a plugin's hooks by name; the stand-in world calls them through this.
        World.CallHook = (hook, hookArgs) => Call(hook, hookArgs);
        // The server starts from its last save (a crash lost what came after it).
        try
        {
            World.LoadSave();
        }
        catch (Exception e)
        {
            World.Die("the last save can't be loaded: " + e.Message);
        }
        var trusted = Environment.GetEnvironmentVariable("HARNESS_TRUSTED_CERTIFICATE");
        if (!string.IsNullOrEmpty(trusted)) TrustCertificate(trusted);
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            line = line.Trim();
            if (line.Length == 0) continue;
            var words = line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            try
            {
                Handle(words, line);
                World.Emit(new Dictionary<string, object> { ["ev"] = "done", ["cmd"] = words[0] });
            }
            catch (Exception e)
            {
                World.Emit(new Dictionary<string, object> { ["ev"] = "done", ["cmd"] = words[0], ["error"] = e.ToString() });
            }
        }
        return 0;
    }
}
