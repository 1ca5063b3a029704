// The harness's game world: virtual time and timers, the main thread's queue, the players, the
// console, the files on disk, the world's saves and the faults a test can inject. Everything the
// plugin does that a test checks is printed on stdout as one JSON object per line
// (plugins/oxide/harness/Main.cs reads the test's instructions from stdin). Never shipped.
//
// Saves and rollback, as Rust and Oxide do them (decision 124):
//  - Rust saves the world every server.saveinterval (600 s by default), phase by phase over seconds
//    (see "Rust's save, phase by phase" below, decision 131): the OnServerSave hook first (Oxide's
//    permission save inside it), the cache over frames, one serialization frame, `.new` and the copy;
//    SaveRestore.IsSaving all along. A "server.save" is refused while it runs, else it is the same
//    save done at once, hook included. Plugins see the console command first through
//    IOnServerCommand → OnServerCommand(string command, string[] args) (RustHooks.cs).
//  - "quit": ServerMgr.Shutdown calls IOnServerShutdown first (index 0): plugins hear
//    OnServerShutdown, OxideMod.OnShutdown unloads them and saves the permission data, then Rust
//    runs server.save (refused during an automated save).
//  - Oxide's Permission keeps users, groups and grants in memory until SaveData (AddUserGroup,
//    GrantUserPermission, CreateGroup write nothing); Rust's world likewise. A process that dies
//    restarts from the last save: players' inventories, what lies on the ground, groups and grants
//    are as they were then. Plugin data files (the journal) are written at once and survive.
//  - A wipe: the save is named after the map (level, size, seed), so a server started after its owner
//    deleted the save or changed the seed finds none, generates a new map and creates a new save, whose
//    creation time (SaveRestore.SaveCreatedTime, the plugin's "wiped_at") is that start. Oxide's data is
//    not in the save and outlives the wipe: groups and grants stay. Here: server/world.json removed.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using Newtonsoft.Json;
using Newtonsoft.Json.Serialization;
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

        /// <summary>bench/plugin: answers web requests in-process (path, body, headers) → (code, body) instead of over HTTP.</summary>
        public static Func<string, string, Dictionary<string, string>, KeyValuePair<int, string>> Responder;

        /// <summary>Calls a hook on the loaded plugin as Oxide does (set by the harness); null when none answers.</summary>
        public static Func<string, object[], object> CallHook = (name, args) => null;

        /// <summary>Players who left: Rust keeps them in the world as sleepers, inventories and all.</summary>
        public static readonly Dictionary<string, BasePlayer> Sleepers = new Dictionary<string, BasePlayer>();
        /// <summary>What lies on the ground, by the player it was dropped for: item → amount.</summary>
        public static readonly Dictionary<string, Dictionary<string, int>> Ground = new Dictionary<string, Dictionary<string, int>>();
        private static double nextSaveAt = double.NaN;

        // Faults
        public static bool FailWrites;
        public static int CrashOnWrite; // the Nth next data-file write is cut in half, then the process dies
        public static int PowerLossOnWrite; // the power fails as the Nth next data-file write begins (PowerLoss)
        public static string CrashOnGive; // a give of this shortname happens, then the process dies
        public static string GivePartly; // the next give of this shortname moves half into a stack and refuses the rest (another plugin's hook)
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

        private static readonly List<string> logged = new List<string>();

        public static void Log(string level, string text)
        {
            lock (logged) logged.Add(text);
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

        private static readonly List<string> requested = new List<string>();

        /// <summary>A web request to this path was made (the harness's `wait-request` looks for it).</summary>
        public static void Requested(string path) { lock (requested) requested.Add(path); }

        public static int RequestCount() { lock (requested) return requested.Count; }

        public static bool RequestedSince(int from, string path)
        {
            lock (requested)
            {
                for (var i = from; i < requested.Count; i++) if (requested[i] == path) return true;
            }
            return false;
        }
        public static void EndRequest() { Interlocked.Decrement(ref inFlight); }

        public static Oxide.Plugins.Timer AddTimer(Oxide.Plugins.Timer timer)
        {
            timers.Add(timer);
            return timer;
        }

        /// <summary>The longest one queued callback (a web answer, a NextTick) took on the main thread, ms (bench/plugin).</summary>
        public static double LongestActionMs;

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
                    var frame = System.Diagnostics.Stopwatch.StartNew();
                    next();
                    LongestActionMs = Math.Max(LongestActionMs, frame.Elapsed.TotalMilliseconds);
                    continue;
                }
                if (Volatile.Read(ref inFlight) == 0) return;
                Thread.Sleep(5);
            }
            Log("warn", "harness: still waiting for web requests after " + limit.TotalSeconds + " s");
        }

        public static int LogCount() { lock (logged) return logged.Count; }

        /// <summary>Whether a log line since the first `from` lines contains the text.</summary>
        public static bool LoggedSince(int from, string text)
        {
            lock (logged)
            {
                for (var i = from; i < logged.Count; i++) if (logged[i].Contains(text)) return true;
            }
            return false;
        }

        /// <summary>
        /// Runs the main thread's queue in real time, the game's clock standing still (frames pass, no timer is
        /// due), until `done` or the limit: what other threads hand the main thread (a socket's news through
        /// NextTick) runs as it arrives. Answers whether `done` came.
        /// </summary>
        public static bool RunFramesUntil(Func<bool> done, TimeSpan limit)
        {
            var until = DateTime.UtcNow + limit;
            while (true)
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
                if (done()) return true;
                if (DateTime.UtcNow >= until) return false;
                Thread.Sleep(5);
            }
        }

        /// <summary>Moves virtual time forward, firing due timers in order and settling after each.</summary>
        public static void Advance(double seconds, TimeSpan settleLimit)
        {
            var target = Now + seconds;
            if (double.IsNaN(nextSaveAt)) nextSaveAt = Now + ConVar.Server.saveinterval;
            while (true)
            {
                timers.RemoveAll(t => t.Destroyed);
                Oxide.Plugins.Timer due = null;
                foreach (var t in timers)
                {
                    if (t.ExpiresAt <= target && (due == null || t.ExpiresAt < due.ExpiresAt)) due = t;
                }
                var step = NextSaveStep;
                if (!double.IsNaN(step) && step <= target && (due == null || step <= due.ExpiresAt) && !(nextSaveAt < step))
                {
                    if (step > Now) Now = step;
                    StepSave();
                    Settle(settleLimit);
                    continue;
                }
                if (nextSaveAt <= target && (due == null || nextSaveAt <= due.ExpiresAt))
                {
                    // Rust's automated save, every server.saveinterval.
                    if (nextSaveAt > Now) Now = nextSaveAt;
                    nextSaveAt = Now + ConVar.Server.saveinterval;
                    AutomatedSave();
                    Settle(settleLimit);
                    continue;
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

        /// <summary>Time spent writing data files and the bytes written (bench/plugin).</summary>
        public static readonly System.Diagnostics.Stopwatch WriteTime = new System.Diagnostics.Stopwatch();
        public static long WrittenBytes;

        // A power loss loses what the OS had not yet written back. Oxide flushes no data file (File.WriteAllText
        // in DynamicConfigFile.WriteObject), and Linux writes dirty pages back after vm.dirty_expire_centisecs
        // (3000 by default): a data file written in the last 30 s comes back empty, as a truncated-then-rewritten
        // file does on ext4/XFS after a crash. Only paths written through Oxide are tracked: a file the plugin
        // renamed away from its written path (after flushing it itself) is not.
        private const double DirtyExpireSeconds = 30;
        private static readonly Dictionary<string, double> unflushed = new Dictionary<string, double>();

        private static void PowerLoss(string path)
        {
            foreach (var written in unflushed)
                if (Now - written.Value < DirtyExpireSeconds && File.Exists(written.Key)) File.WriteAllBytes(written.Key, new byte[0]);
            if (File.Exists(path)) File.WriteAllBytes(path, new byte[0]);
            Die("power lost while writing " + Path.GetFileName(path));
        }

        public static void WriteDataFile(string path, string json)
        {
            WrittenBytes += json.Length;
            if (FailWrites) throw new IOException("Disk full");
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            if (PowerLossOnWrite > 0 && --PowerLossOnWrite == 0) PowerLoss(path);
            unflushed[path] = Now;
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

        // Saves (see the top of this file)

        private static string WorldFile { get { return Path.Combine(Root, "server", "world.json"); } }
        private static string PermissionFile { get { return Path.Combine(Root, "oxide", "data", "oxide.permission.json"); } }

        /// <summary>Oxide's data, as the stand-in's Permission keeps it: every field, whatever its shape.</summary>
        private class FieldsResolver : DefaultContractResolver
        {
            protected override List<MemberInfo> GetSerializableMembers(Type objectType)
            {
                // The library's private fields, and the public properties of its records (Oxide's UserData and
                // GroupData are properties, whose compiler-made backing fields are skipped here).
                var members = new List<MemberInfo>();
                foreach (var field in objectType.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
                    if (!field.Name.Contains("<")) members.Add(field);
                foreach (var property in objectType.GetProperties(BindingFlags.Instance | BindingFlags.Public))
                    if (property.CanRead && property.CanWrite && property.GetIndexParameters().Length == 0) members.Add(property);
                return members;
            }

            protected override JsonProperty CreateProperty(MemberInfo member, MemberSerialization memberSerialization)
            {
                var property = base.CreateProperty(member, memberSerialization);
                property.Readable = true;
                property.Writable = true;
                return property;
            }
        }

        /// <summary>Oxide's sets ignore case (Permission.cs: StringComparer.OrdinalIgnoreCase); so do the restored ones.</summary>
        private class IgnoreCaseSets : JsonConverter
        {
            public override bool CanConvert(Type objectType) { return objectType == typeof(HashSet<string>); }
            public override object ReadJson(JsonReader reader, Type objectType, object existingValue, JsonSerializer serializer)
            {
                var items = serializer.Deserialize<List<string>>(reader) ?? new List<string>();
                var set = existingValue as HashSet<string> ?? new HashSet<string>(StringComparer.OrdinalIgnoreCase);
                foreach (var item in items) set.Add(item);
                return set;
            }
            public override void WriteJson(JsonWriter writer, object value, JsonSerializer serializer)
            {
                serializer.Serialize(writer, new List<string>((HashSet<string>)value));
            }
            public override bool CanWrite { get { return true; } }
        }

        private static JsonSerializerSettings PermissionSettings()
        {
            var settings = new JsonSerializerSettings
            {
                ContractResolver = new FieldsResolver(),
                ObjectCreationHandling = ObjectCreationHandling.Reuse,
            };
            settings.Converters.Add(new IgnoreCaseSets());
            return settings;
        }

        private class SavedItem { public string item; public int amount; }
        private class SavedPlayer { public string steam_id; public string name; public List<SavedItem> main = new List<SavedItem>(); public List<SavedItem> belt = new List<SavedItem>(); }
        /// <summary>`created_at`: when the map's save was first created (SaveRestore.SaveCreatedTime), Unix ms.</summary>
        private class SavedWorld { public double saved_at; public long created_at; public List<SavedPlayer> players = new List<SavedPlayer>(); public Dictionary<string, Dictionary<string, int>> ground = new Dictionary<string, Dictionary<string, int>>(); }

        private static List<SavedItem> Items(ItemContainer container)
        {
            var items = new List<SavedItem>();
            foreach (var item in container.itemList) items.Add(new SavedItem { item = item.info.shortname, amount = item.amount });
            return items;
        }

        private static void Restore(ItemContainer container, List<SavedItem> items)
        {
            container.itemList.Clear();
            foreach (var saved in items ?? new List<SavedItem>())
            {
                var definition = ItemManager.FindItemDefinition(saved.item);
                if (definition != null) container.itemList.Add(new Item { info = definition, amount = saved.amount });
            }
        }

        /// <summary>Oxide's permission.SaveData(): what a restart finds of groups and grants.</summary>
        public static void WritePermissions()
        {
            Directory.CreateDirectory(Path.GetDirectoryName(PermissionFile));
            // Written aside and moved in, like the world, so a kill mid-write keeps the previous save.
            File.WriteAllText(PermissionFile + ".tmp", JsonConvert.SerializeObject(Permission, Formatting.Indented, PermissionSettings()));
            MoveIn(PermissionFile + ".tmp", PermissionFile);
            Emit(new Dictionary<string, object> { ["ev"] = "save", ["kind"] = "oxide" });
        }

        /// <summary>Puts a new file in place of the old one in one rename (rename(2) under mono's File.Replace).</summary>
        private static void MoveIn(string written, string path)
        {
            if (File.Exists(path)) File.Replace(written, path, null);
            else File.Move(written, path);
        }

        /// <summary>The world as the serialization frame finds it: players (online and asleep), inventories, the ground.</summary>
        private static SavedWorld Serialize()
        {
            var world = new SavedWorld { saved_at = Now, created_at = new DateTimeOffset(SaveRestore.SaveCreatedTime).ToUnixTimeMilliseconds() };
            var everyone = new List<BasePlayer>(BasePlayer.activePlayerList);
            everyone.AddRange(Sleepers.Values);
            foreach (var player in everyone)
            {
                world.players.Add(new SavedPlayer
                {
                    steam_id = player.UserIDString,
                    name = player.displayName,
                    main = Items(player.inventory.containerMain),
                    belt = Items(player.inventory.containerBelt),
                });
            }
            foreach (var pair in Ground) world.ground[pair.Key] = new Dictionary<string, int>(pair.Value);
            return world;
        }

        /// <summary>
        /// SaveRestore.Save's disk step: the buffer goes to `<save>.new`, which is then copied over the save
        /// and deleted. A write that throws logs "Couldn't write save file!" and leaves the old save; a crash
        /// mid-write (fault crash-in-world-write) leaves a cut `.new` beside the intact save. The copy is one
        /// rename here: the stand-in models a crash at any instant restoring the last completed save.
        /// </summary>
        private static bool WriteWorld(SavedWorld world, string kind)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(WorldFile));
            var bytes = Encoding.UTF8.GetBytes(JsonConvert.SerializeObject(world, Formatting.Indented));
            var fresh = WorldFile + ".new";
            if (WorldWriteFails)
            {
                WorldWriteFails = false;
                if (File.Exists(fresh)) File.Delete(fresh);
                UnityEngine.Debug.LogError("Couldn't write save file! We got an exception: System.IO.IOException: Disk full");
                Emit(new Dictionary<string, object> { ["ev"] = "save-failed", ["kind"] = kind });
                return false;
            }
            using (var stream = new FileStream(fresh, FileMode.Create, FileAccess.Write))
            {
                if (CrashInWorldWrite)
                {
                    stream.Write(bytes, 0, bytes.Length / 2);
                    stream.Flush();
                    Die("crash while writing the world's save");
                }
                stream.Write(bytes, 0, bytes.Length);
            }
            MoveIn(fresh, WorldFile);
            UnityEngine.Debug.Log("Saved " + (world.players.Count + world.ground.Count).ToString("N0") + " ents, cache(0.00), write(0.00), disk(0.00).");
            Emit(new Dictionary<string, object> { ["ev"] = "save", ["kind"] = kind });
            return true;
        }

        /// <summary>A whole save at once (Rust's shutdown save before this model; kept for the bench).</summary>
        public static void WriteSave(string kind)
        {
            WriteWorld(Serialize(), kind);
        }

        /// <summary>A (re)started server: the world and Oxide's data as the last completed save left them.</summary>
        public static void LoadSave()
        {
            if (File.Exists(PermissionFile))
                JsonConvert.PopulateObject(File.ReadAllText(PermissionFile), Permission, PermissionSettings());
            // No save of the map (a new server, or a wipe: the owner deleted the map's save or changed its seed):
            // Rust generates the map and its save is created now. Oxide's data, in oxide/data, is not part of it.
            // A `.new` left by a crash mid-write is not the save: Rust loads the save file itself.
            if (!File.Exists(WorldFile)) return;
            var world = JsonConvert.DeserializeObject<SavedWorld>(File.ReadAllText(WorldFile));
            if (world.created_at > 0) SaveRestore.SaveCreatedTime = DateTimeOffset.FromUnixTimeMilliseconds(world.created_at).UtcDateTime;
            foreach (var saved in world.players)
            {
                var player = new BasePlayer { userID = ulong.Parse(saved.steam_id), displayName = saved.name };
                Restore(player.inventory.containerMain, saved.main);
                Restore(player.inventory.containerBelt, saved.belt);
                Sleepers[saved.steam_id] = player;
            }
            foreach (var pair in world.ground) Ground[pair.Key] = pair.Value;
        }

        // Rust's save, phase by phase (decompiled Assembly-CSharp, SaveRestore and ConVar.Server; Oxide.Rust
        // resources/Rust.opj: "OnServerSave" is a Simple hook at InjectionIndex 0 of SaveRestore.DoAutomatedSave,
        // so it fires when DoAutomatedSave is called, before any of the coroutine runs):
        //  1. the hook: RustCore.OnServerSave (src/RustCore.cs:175-180) → Interface.Oxide.OnSave() →
        //     permission.SaveData() (Oxide.Core src/OxideMod.cs, OnSave); then the plugins' OnServerSave.
        //     SaveRestore.IsSaving = true, and a frame passes.
        //  2. the cache: SaveRestore.Save builds every entity's save cache (BaseNetworkable.GetSaveCache),
        //     yielding a frame after each 5 ms of work: seconds on a full map (here SaveCacheSeconds of
        //     virtual time, in frames of FrameSeconds; timers and web answers run between them).
        //  3. the serialization frame: the header, a frame, then every entity's GetSaveCache() into the buffer.
        //     A change to an entity after its cache was built does not keep the old cache: a player's inventory
        //     change calls PlayerInventory.OnContentsDirty → InvalidateNetworkCache, which drops _SaveCache, and
        //     GetSaveCache builds it again in this frame. So the save holds the world as this frame finds it:
        //     a give before it is in the save, a give after it is not.
        //  4. a frame, then the disk: `.new` written, copied over the save, "Saved N ents…" logged; a failed
        //     write logs "Couldn't write save file!" and ends the save (the old file stays).
        //  5. a frame, "Saving complete", IsSaving = false — after a failed write too.
        // `server.save` (ConVar.Server.save → SaveRestore.Save(true)) returns false while IsSaving, without the
        // hook and without saving; otherwise it runs DoAutomatedSave(true): the hook, then all of it in one call.

        /// <summary>Virtual seconds the cache phase of an automated save takes (harness: `save-config cache S`).</summary>
        public static double SaveCacheSeconds = 0.5;
        public const double FrameSeconds = 0.05;
        /// <summary>Faults: the next world write fails (disk full), or the process dies halfway through it.</summary>
        public static bool WorldWriteFails;
        public static bool CrashInWorldWrite;

        private class SaveRun { public string Phase; public double NextAt; public SavedWorld Buffer; }
        private static SaveRun saving;

        public static string SavePhase { get { return saving == null ? "idle" : saving.Phase; } }

        private static void SaveHook()
        {
            // RustCore is a core plugin, loaded first: its OnServerSave (Oxide's data) runs before the plugins'.
            WritePermissions();
            CallHook("OnServerSave", new object[0]);
        }

        private static void Phase(string phase)
        {
            saving.Phase = phase;
            Emit(new Dictionary<string, object> { ["ev"] = "save-phase", ["phase"] = phase });
        }

        /// <summary>Rust's automated save starts: the hook now, the rest in later frames (StepSave).</summary>
        public static void AutomatedSave()
        {
            if (saving != null) return;
            SaveHook();
            SaveRestore.IsSaving = true;
            saving = new SaveRun { NextAt = Now + FrameSeconds + SaveCacheSeconds };
            Phase("cache");
        }

        /// <summary>When the running save's next frame is due (NaN when none runs).</summary>
        public static double NextSaveStep { get { return saving == null ? double.NaN : saving.NextAt; } }

        /// <summary>One frame of the running automated save.</summary>
        public static void StepSave()
        {
            if (saving == null) return;
            switch (saving.Phase)
            {
                case "cache":
                    saving.Buffer = Serialize();
                    saving.NextAt = Now + FrameSeconds;
                    Phase("serialized");
                    break;
                case "serialized":
                    WriteWorld(saving.Buffer, "automated");
                    saving.NextAt = Now + FrameSeconds;
                    Phase("written");
                    break;
                default:
                    UnityEngine.Debug.Log("Saving complete");
                    saving = null;
                    SaveRestore.IsSaving = false;
                    Emit(new Dictionary<string, object> { ["ev"] = "save-phase", ["phase"] = "complete" });
                    break;
            }
        }

        /// <summary>Runs the automated save's frames (and what falls between them) until it reaches `phase`.</summary>
        public static void RunSaveUntil(string phase, TimeSpan settleLimit)
        {
            if (saving == null) AutomatedSave();
            Settle(settleLimit);
            while (saving != null && saving.Phase != phase) Advance(Math.Max(0, saving.NextAt - Now), settleLimit);
        }

        /// <summary>`server.save`: SaveRestore.Save(true). Refused while a save runs; else the hook and a whole save now.</summary>
        private static string ConsoleSave()
        {
            UnityEngine.Debug.Log("Invalidate Network Cache took 0.00 seconds");
            if (SaveRestore.IsSaving)
            {
                Emit(new Dictionary<string, object> { ["ev"] = "save-refused" });
                return "";
            }
            SaveHook();
            SaveRestore.IsSaving = true;
            WriteWorld(Serialize(), "console");
            UnityEngine.Debug.Log("Saving complete");
            SaveRestore.IsSaving = false;
            return "";
        }

        /// <summary>
        /// "quit": ServerMgr.Shutdown calls IOnServerShutdown first (Rust.opj, index 0): RustCore.IOnServerShutdown
        /// (src/RustCore.cs:185-191) calls the plugins' OnServerShutdown, then OxideMod.OnShutdown unloads them and
        /// saves Oxide's data; then Rust runs server.save, refused if an automated save is running. The process ends.
        /// </summary>
        public static void Quit()
        {
            CallHook("OnServerShutdown", new object[0]);
            CallHook("Unload", new object[0]);
            CallHook = (name, args) => null;
            WritePermissions();
            ConsoleSave();
            Emit(new Dictionary<string, object> { ["ev"] = "quit" });
            Environment.Exit(0);
        }

        public static void DropOnGround(BasePlayer player, Item item)
        {
            var key = player == null ? "" : player.UserIDString;
            Dictionary<string, int> items;
            if (!Ground.TryGetValue(key, out items)) Ground[key] = items = new Dictionary<string, int>();
            int had;
            items.TryGetValue(item.info.shortname, out had);
            items[item.info.shortname] = had + item.amount;
            Emit(new Dictionary<string, object> { ["ev"] = "drop", ["steam_id"] = key, ["item"] = item.info.shortname, ["amount"] = item.amount });
        }

        // Players

        /// <summary>A player connects: the sleeper they left behind wakes with their inventory, or a new one spawns.</summary>
        public static BasePlayer Connect(string steamId, string name)
        {
            BasePlayer player;
            if (Sleepers.TryGetValue(steamId, out player)) Sleepers.Remove(steamId);
            else player = new BasePlayer { userID = ulong.Parse(steamId), displayName = name };
            player.displayName = name;
            player.dead = false;
            player.playerFlags = BasePlayer.PlayerFlags.Connected;
            BasePlayer.activePlayerList.Add(player);
            return player;
        }

        public static void Disconnect(BasePlayer player)
        {
            BasePlayer.activePlayerList.Remove(player);
            player.playerFlags = BasePlayer.PlayerFlags.Sleeping;
            Sleepers[player.UserIDString] = player;
        }

        public static BasePlayer FindAnywhere(string steamId)
        {
            BasePlayer player;
            return Find(steamId) ?? (Sleepers.TryGetValue(steamId, out player) ? player : null);
        }

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

        /// <summary>A console command as Rust runs it: Oxide's IOnServerCommand hook first (RustHooks.cs), then the command.</summary>
        public static string RunServerCommand(string line)
        {
            var parts = new List<string>();
            foreach (Match m in Words.Matches(line)) parts.Add(m.Value);
            if (parts.Count == 0) return "";
            var args = parts.GetRange(1, parts.Count - 1).ToArray();
            CallHook("OnServerCommand", new object[] { FullName(parts[0]), args });
            return RunConsole(line);
        }

        private static string FullName(string verb)
        {
            verb = verb.ToLowerInvariant();
            if (verb.StartsWith("o.")) verb = "oxide." + verb.Substring(2);
            // Rust's console resolves a bare name to its command: "save" is server.save.
            if (verb == "save") verb = "server.save";
            return verb;
        }

        public static string RunConsole(string line)
        {
            var parts = new List<string>();
            foreach (Match m in Words.Matches(line)) parts.Add(m.Value);
            if (parts.Count == 0) return "";
            var verb = FullName(parts[0]);
            switch (verb)
            {
                case "server.save":
                    return ConsoleSave();
                case "oxide.save":
                    // RustCore's SaveCommand: Interface.Oxide.OnSave(), Oxide's data only.
                    WritePermissions();
                    return "Data saved";
                case "server.hostname":
                    if (parts.Count > 1) ConVar.Server.hostname = line.Substring(line.IndexOf(parts[1], StringComparison.Ordinal)).Trim();
                    return "server.hostname: \"" + ConVar.Server.hostname + "\"";
                case "server.saveinterval":
                {
                    int seconds;
                    if (parts.Count > 1 && int.TryParse(parts[1], out seconds) && seconds > 0)
                    {
                        ConVar.Server.saveinterval = seconds;
                        nextSaveAt = Now + seconds;
                    }
                    return "server.saveinterval: \"" + ConVar.Server.saveinterval + "\"";
                }
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
