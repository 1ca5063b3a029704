// Rust Store Delivery: delivers purchases from the site to this Rust server.
// Oxide/uMod plugin (also runs on Carbon). Install guide: plugins/oxide/README.md.
//
// Protocol (worker/api/game.ts):
//   every request: POST JSON, headers X-Server-Id, X-Timestamp (unix seconds),
//   X-Signature = hex HMAC-SHA256(SHA-256(server key), "{timestamp}\n{METHOD}\n{path and query}\n{body}")
//   POST /api/game/heartbeat  server state, map, last wipe and online SteamIDs
//   POST /api/game/queue      deliveries due here, with their commands (signed answer, v3)
//   POST /api/game/ack        each delivery's progress, command by command (signed answer, v3)
//   POST /api/game/pending    what is waiting for one player (/store; signed answer)
// An answer whose signature doesn't verify is ignored: nothing runs, nothing is marked.
//
// Exactly once (docs/decisions/124-delivery-exactly-once.md): every command of a delivery takes
// effect in the world at most once, and at least once unless an operator decides otherwise.
//   - The journal (a data file, written at once) records each command: given when it ran, saved
//     once a save that holds it has reached the disk (decision 131: noted at OnServerSave, counted
//     when Rust logs "Saved … ents" for that save). Only saved counts as delivered on the site, and
//     nothing starts while SaveRestore.IsSaving.
//   - Rust's world and Oxide's groups and permissions are written only when the server saves; a
//     crash restarts from the last completed save. A command found "given" when the plugin loads at a
//     server start (OnServerInitialized(true)) was rolled back: it is pending again and runs once more
//     when the site serves it; a reload keeps it given. Commands outside the save (say, an owner's
//     verb) are saved as they return; one the crash interrupted is uncertain, for an operator.
//   - The site says which commands took effect elsewhere (done); a retry runs only the rest.
//
// Commands run through the game's own API, never judged by words in a console reply: items are
// created and given (and checked), groups and permissions changed through Oxide's permission
// library (and checked). Only allowed command verbs run; a SteamID in a command must be the
// delivery's own.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Net.WebSockets;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using Newtonsoft.Json;
using Oxide.Core;
using Oxide.Core.Libraries;

namespace Oxide.Plugins
{
    [Info("Rust Store Delivery", "Svoboda", "3.0.0")]
    [Description("Delivers shop purchases from the site: signed polling, each command once, counted when the world is saved, and /store")]
    public class RustStoreDelivery : RustPlugin
    {
        private const float MinIntervalSeconds = 10f;
        /// <summary>What the site keeps of a failure's text (worker/services/game/deliveries.ts).</summary>
        private const int MessageLimit = 300;
        private const int AckBatchMaxCount = 100;
        /// <summary>Well under the site's 64 KiB request limit.</summary>
        private const int AckBatchMaxBytes = 32 * 1024;
        private const float StoreCooldownSeconds = 10f;

        #region Configuration

        private class PluginConfig
        {
            [JsonProperty("Site URL (https://…)")]
            public string SiteUrl = "https://example.com";

            [JsonProperty("Server id")]
            public int ServerId = 0;

            [JsonProperty("Server key")]
            public string ServerKey = "";

            // 30 s and 60 s keep ten servers' requests inside the site's free Cloudflare plan (decision 126);
            // the site counts a server alive for 3 minutes after a heartbeat, 9 after one with the doorbell connected (decision 151).
            [JsonProperty("Poll interval, seconds (at least 10)")]
            public float PollIntervalSeconds = 30f;

            // With the doorbell connected a ring brings a due delivery at once; this poll only catches a lost ring (decision 148).
            [JsonProperty("Poll interval with the doorbell connected, seconds (at least 10)")]
            public float DoorbellPollIntervalSeconds = 180f;

            [JsonProperty("Doorbell (the site rings when a delivery is due)")]
            public bool Doorbell = true;

            [JsonProperty("Heartbeat interval, seconds (at least 10)")]
            public float HeartbeatIntervalSeconds = 60f;

            // 180 s and the safety poll's 180 s fit 30 servers in the free plan (decision 151); over 180 s the site may
            // count the server gone between two beats (it allows three beats: 9 minutes).
            [JsonProperty("Heartbeat interval with the doorbell connected, seconds (at least 10)")]
            public float DoorbellHeartbeatIntervalSeconds = 180f;

            [JsonProperty("Request timeout, seconds")]
            public float RequestTimeoutSeconds = 20f;

            [JsonProperty("Allowed commands (first words)")]
            public List<string> AllowedCommands = null;
        }

        private static List<string> DefaultAllowedCommands()
        {
            return new List<string>
            {
                "inventory.giveto", "oxide.usergroup add", "oxide.usergroup remove", "oxide.grant user", "oxide.revoke user", "say",
            };
        }

        private PluginConfig config;

        protected override void LoadDefaultConfig()
        {
            config = new PluginConfig { AllowedCommands = DefaultAllowedCommands() };
        }

        protected override void LoadConfig()
        {
            base.LoadConfig();
            try
            {
                config = Config.ReadObject<PluginConfig>();
                if (config == null) throw new Exception("empty config");
                if (config.AllowedCommands == null || config.AllowedCommands.Count == 0) config.AllowedCommands = DefaultAllowedCommands();
            }
            catch (Exception e)
            {
                PrintError("Config file is invalid ({0}); using defaults. Fix oxide/config/RustStoreDelivery.json.", e.Message);
                LoadDefaultConfig();
            }
            SaveConfig();
        }

        protected override void SaveConfig()
        {
            Config.WriteObject(config, true);
        }

        #endregion

        #region Wire types

        private class QueueResponse
        {
            [JsonProperty("deliveries")] public List<Delivery> Deliveries;
            [JsonProperty("lease_seconds")] public int LeaseSeconds;
            [JsonProperty("resync_from")] public long? ResyncFrom;
            [JsonProperty("response_signature_v3")] public string ResponseSignature;
        }

        private class Delivery
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("kind")] public string Kind;
            [JsonProperty("steam_id")] public string SteamId;
            [JsonProperty("requires_online")] public bool RequiresOnline;
            [JsonProperty("title")] public string Title;
            [JsonProperty("duration_days")] public int? DurationDays;
            [JsonProperty("commands")] public List<string> Commands;
            /// <summary>Commands (indices) that took effect already, here or on another server.</summary>
            [JsonProperty("done")] public List<int> Done;
            /// <summary>The lease this answer gives; results are reported under it.</summary>
            [JsonProperty("lease")] public int Lease;
            /// <summary>«Повторить» presses so far: an uncertain command runs again only after one.</summary>
            [JsonProperty("retry")] public int Retry;
        }

        private class AckResult
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("ok")] public bool Ok;
            [JsonProperty("message", NullValueHandling = NullValueHandling.Ignore)] public string Message;
            [JsonProperty("interrupted", NullValueHandling = NullValueHandling.Ignore)] public bool? Interrupted;
            /// <summary>One letter a command: p pending, g given, s saved, f failed, u uncertain.</summary>
            [JsonProperty("progress", NullValueHandling = NullValueHandling.Ignore)] public string Progress;
            [JsonProperty("lease", NullValueHandling = NullValueHandling.Ignore)] public int? Lease;
            /// <summary>What was sent, to mark the entry reported when the site accepts it (not sent).</summary>
            [JsonIgnore] public string Snapshot;
        }

        private class AckStatus
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("status")] public string Status;
        }

        private class AckResponse
        {
            [JsonProperty("results")] public List<AckStatus> Results;
            [JsonProperty("ack_seq")] public long AckSeq;
            [JsonProperty("delivery_ids")] public List<string> DeliveryIds;
            [JsonProperty("response_signature")] public string ResponseSignature;
            [JsonProperty("response_signature_v3")] public string ResponseSignatureV3;
        }

        private class PendingResponse
        {
            [JsonProperty("items")] public List<PendingItem> Items;
            [JsonProperty("response_signature")] public string ResponseSignature;
        }

        private class PendingItem
        {
            [JsonProperty("name")] public string Name;
            [JsonProperty("duration_days")] public int? DurationDays;
            [JsonProperty("failed")] public bool Failed;
        }

        private class Skipped
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("lease")] public int Lease;
        }

        #endregion

        #region Journal

        // One letter a command (decision 124).
        private const char Pending = 'p';
        private const char Given = 'g';
        private const char Saved = 's';
        private const char FailedHere = 'f';
        private const char Uncertain = 'u';

        private const string Running = "running";
        private const string Open = "open";

        private class JournalEntry
        {
            /// <summary>"running" while its commands run: a crash there rolled its world commands back. Else "open".</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public string State;
            /// <summary>Each command as the site fixed it, as a short hash (CommandKey); null items are unknown (an older journal's entry).</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public List<string> Commands;
            /// <summary>One letter a command: p pending, g given, s saved, f failed, u uncertain.</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public string Progress;
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public string Message;
            public int Lease;
            [JsonProperty(DefaultValueHandling = DefaultValueHandling.Ignore)] public int Retry;
            /// <summary>Given commands that changed Oxide's groups or permissions: Oxide writes those at the save's hook.</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public List<int> InOxide;
            /// <summary>A command outside the world's save running now, written before it runs.</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public int? Running;
            /// <summary>What the site's signed answer accepted last; the entry is reported again when it changes.</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public string Reported;
            /// <summary>The site's acknowledgement counter when it accepted the entry (re-sync after a restore).</summary>
            [JsonProperty(DefaultValueHandling = DefaultValueHandling.Ignore)] public long ReportedSeq;
            /// <summary>The site refused the result as malformed (a signed 400): kept for the operator, never sent again.</summary>
            [JsonProperty(DefaultValueHandling = DefaultValueHandling.Ignore)] public bool SetAside;
            public long RecordedAt;
            // What older journals knew, used when the site serves the delivery again (decision 124, upgrades).
            /// <summary>Every command took effect.</summary>
            [JsonProperty(DefaultValueHandling = DefaultValueHandling.Ignore)] public bool All;
            /// <summary>"other": commands outside the save not known to have finished are uncertain; "all": every unknown one is.</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public string UncertainRest;
            /// <summary>An old-style result still to report ("ok", "failed", "interrupted").</summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public string Legacy;
            // Plugin 2.0 and 1.x fields: read once, migrated, never written.
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public List<string> Done;
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public bool? Acked;
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public bool? Ok;
        }

        private class Journal
        {
            public int Version;
            public long Seq;
            /// <summary>The highest acknowledgement counter the site's signed answers carried (decision 124).</summary>
            public long SiteSeq;
            /// <summary>The site was restored from a backup: results it acknowledged after this counter are being sent again.</summary>
            public long? Resync;
            /// <summary>
            /// The entries with given commands when the running save's OnServerSave hook fired (decision 131): they
            /// turn saved once Rust logs that this save reached the disk; null when no save is awaited.
            /// </summary>
            [JsonProperty(NullValueHandling = NullValueHandling.Ignore)] public List<string> InSave;
            public Dictionary<string, JournalEntry> Entries = new Dictionary<string, JournalEntry>();
        }

        private Journal journal = new Journal { Version = 3 };
        /// <summary>
        /// Settled entries (the site has heard them and nothing waits for a save), kept 400 days so a
        /// delivery served again — a lost answer, a restored site — is recognised, never run twice.
        /// One file pair per day they were archived on: only today's is rewritten, so the cost of
        /// archiving stays that of one day's deliveries however long the history grows.
        /// </summary>
        private Journal archive = new Journal { Version = 3 };
        private readonly Dictionary<string, Journal> archiveDays = new Dictionary<string, Journal>();
        private readonly Dictionary<string, string> archivedOn = new Dictionary<string, string>();
        private const int ArchiveKeepDays = 400;
        private const float ArchiveEverySeconds = 60f;
        private float lastArchived = -ArchiveEverySeconds;

        // Two files written in turn, each replaced whole (WriteDurably): a crash or a power loss leaves each
        // with its old state or its new one. Two, not one, so the previous plugin (which reads either) can
        // roll back onto the same data (decision 131).
        private string JournalFile { get { return Name + "_journal"; } }
        private string ArchiveFile(string day) { return Name + "_archive_" + day; }

        private static string Day(DateTime when) { return when.ToString("yyyyMMdd", CultureInfo.InvariantCulture); }

        private Journal ReadJournalFile(string file, out string problem)
        {
            problem = null;
            if (!Interface.Oxide.DataFileSystem.ExistsDatafile(file)) return null;
            try
            {
                var read = Interface.Oxide.DataFileSystem.ReadObject<Journal>(file);
                if (read == null || read.Entries == null)
                {
                    problem = file + ".json is empty";
                    return null;
                }
                return read;
            }
            catch (Exception e)
            {
                problem = file + ".json can't be read (" + e.Message + ")";
                return null;
            }
        }

        /// <summary>The newest complete copy of a journal file pair, a new one when there is none, or null (delivery stops) when only broken ones exist.</summary>
        private Journal LoadPair(string file)
        {
            var copyFile = file + "_copy";
            var mainExists = Interface.Oxide.DataFileSystem.ExistsDatafile(file);
            var copyExists = Interface.Oxide.DataFileSystem.ExistsDatafile(copyFile);
            if (!mainExists && !copyExists) return new Journal { Version = 3 };
            string mainProblem, copyProblem;
            var main = ReadJournalFile(file, out mainProblem);
            var copy = ReadJournalFile(copyFile, out copyProblem);
            var newest = main == null ? copy : copy == null ? main : (copy.Seq > main.Seq ? copy : main);
            if (newest == null)
            {
                // Never read a broken journal as "nothing ran": that would run deliveries twice.
                PrintError("Delivery stopped: the journal can't be read ({0}). Restore oxide/data/{1}.json from a backup, " +
                    "or delete both journal files if you accept that deliveries run here but not yet acknowledged may run again; then reload the plugin.",
                    string.Join("; ", new[] { mainProblem, copyProblem }), file);
                return null;
            }
            return newest;
        }

        /// <summary>`boot`: the server has just started from its last save (OnServerInitialized(true)); else a reload in a running server.</summary>
        private bool LoadJournal(bool boot)
        {
            journal = LoadPair(JournalFile);
            if (journal == null) return false;
            var migrated = journal.Version < 3;
            var rolledBack = 0;
            var uncertain = 0;
            foreach (var entry in journal.Entries.Values)
            {
                if (Migrate(entry)) migrated = true;
                if (entry.Progress == null) continue;
                var letters = entry.Progress.ToCharArray();
                for (var i = 0; i < letters.Length; i++)
                {
                    // Given and never saved: the server died after it, and its world (and Oxide's data)
                    // restarted from the save before it. It is pending again and runs once more. A delivery
                    // still "running" on disk had its commands run after the last save, if at all: the same.
                    // A reload in a running server (OnServerInitialized(false)) finds the world as it was: given stays given.
                    if ((boot && letters[i] == Given) || (entry.State == Running && letters[i] == Pending && entry.Running != i))
                    {
                        letters[i] = Pending;
                        rolledBack++;
                    }
                }
                if (entry.Running.HasValue && entry.Running.Value < letters.Length)
                {
                    // A command outside the save was running: it may have taken effect, and nothing undoes it.
                    letters[entry.Running.Value] = Uncertain;
                    uncertain++;
                }
                entry.Progress = new string(letters);
                if (boot) entry.InOxide = null;
                entry.Running = null;
                entry.State = Open;
            }
            journal.Version = 3;
            // A save noted before a restart never completed (a completed one is confirmed as it writes); one noted
            // before a reload is awaited only while it still runs: else its end was missed, and the next save counts.
            var forgotSave = journal.InSave != null && (boot || !SaveRestore.IsSaving);
            if (forgotSave) journal.InSave = null;
            if (rolledBack > 0)
                PrintWarning("{0} command(s) ran after the last world save and were rolled back by the restart; they will run once more.", rolledBack);
            if (uncertain > 0)
                PrintError("{0} command(s) were running when the server stopped and may have taken effect; reported for a check by hand.", uncertain);
            if (migrated)
            {
                // Everything an older plugin ran is now counted saved: make it so.
                SaveWorldAndOxide();
                Puts("Journal of an older plugin version migrated; the world was saved.");
            }
            if (migrated || rolledBack > 0 || uncertain > 0 || forgotSave) SaveJournal();
            return true;
        }

        /// <summary>Day files of the archive still to read, oldest first (a later copy of an entry wins); null once read.</summary>
        private List<string> archiveToRead;
        /// <summary>Main-thread time one frame spends reading the archive: its 400 day files are read over frames.</summary>
        private const double ArchiveSliceMs = 10;

        /// <summary>Starts reading the archive of the last 400 days; `loaded` runs once it is all in (never when a file is broken).</summary>
        private void LoadArchive(Action loaded)
        {
            archive = new Journal { Version = 3 };
            archiveDays.Clear();
            archivedOn.Clear();
            archiveToRead = new List<string>();
            var today = DateTime.UtcNow.Date;
            for (var back = ArchiveKeepDays; back >= 0; back--)
            {
                var day = Day(today.AddDays(-back));
                var file = ArchiveFile(day);
                if (Interface.Oxide.DataFileSystem.ExistsDatafile(file) || Interface.Oxide.DataFileSystem.ExistsDatafile(file + "_copy")) archiveToRead.Add(day);
            }
            ReadArchiveSlice(loaded);
        }

        /// <summary>Reads day files for about ArchiveSliceMs, then yields the frame; a broken one stops delivery.</summary>
        private void ReadArchiveSlice(Action loaded)
        {
            if (unloading || archiveToRead == null) return;
            var started = DateTime.UtcNow;
            while (archiveToRead.Count > 0)
            {
                var day = archiveToRead[0];
                archiveToRead.RemoveAt(0);
                var pair = LoadPair(ArchiveFile(day));
                if (pair == null)
                {
                    journal = null;
                    archiveToRead = null;
                    return;
                }
                archiveDays[day] = pair;
                foreach (var entry in pair.Entries)
                {
                    archive.Entries[entry.Key] = entry.Value;
                    archivedOn[entry.Key] = day;
                }
                if (archiveToRead.Count > 0 && (DateTime.UtcNow - started).TotalMilliseconds >= ArchiveSliceMs)
                {
                    NextTick(() => Guarded("archive", () => ReadArchiveSlice(loaded)));
                    return;
                }
            }
            archiveToRead = null;
            // Days past the 400 are emptied, so the history on disk stays that long.
            var today = DateTime.UtcNow.Date;
            for (var back = ArchiveKeepDays + 1; back <= ArchiveKeepDays + 7; back++)
            {
                var file = ArchiveFile(Day(today.AddDays(-back)));
                if (Interface.Oxide.DataFileSystem.ExistsDatafile(file)) SavePair(file, new Journal { Version = 3 });
            }
            loaded();
        }

        /// <summary>An archived entry the site serves again goes back to the journal; its day file forgets it when next written.</summary>
        private void Unarchive(string id)
        {
            string day;
            archive.Entries.Remove(id);
            if (!archivedOn.TryGetValue(id, out day)) return;
            archivedOn.Remove(id);
            Journal days;
            if (archiveDays.TryGetValue(day, out days)) days.Entries.Remove(id);
        }

        /// <summary>A plugin 2.0 or 1.x entry in this version's terms; true when it was one.</summary>
        private static bool Migrate(JournalEntry entry)
        {
            if (entry.State == Open || entry.State == Running) return false;
            var old = entry.State;
            entry.State = Open;
            entry.Retry = 0;
            if (old == null)
            {
                // Plugin 1.x wrote "ok" before running and never which commands ran.
                if (entry.Ok != false && entry.Acked == true)
                {
                    entry.All = true;
                    entry.Reported = "legacy";
                }
                else if (entry.Ok == false)
                {
                    // It ran and failed ("failed" on the site once heard): it stays failed, and a retry the site
                    // serves runs it as 1.x would have; no operator is asked about it (issue 44, item 4).
                    if (entry.Acked == true) entry.Reported = "legacy";
                    else entry.Legacy = "failed";
                }
                else
                {
                    entry.UncertainRest = "all";
                    entry.Legacy = entry.Acked == true ? null : "interrupted";
                }
            }
            else if (old == "ok")
            {
                entry.All = true;
                if (entry.Acked == true) entry.Reported = "legacy";
                else entry.Legacy = "ok";
            }
            else
            {
                // Plugin 2.0: "failed", "started" (the server died in it) or "interrupted" (reported as such).
                var commands = new List<string>();
                foreach (var key in entry.Done ?? new List<string>())
                {
                    var colon = key.IndexOf(':');
                    int index;
                    if (colon <= 0 || !int.TryParse(key.Substring(0, colon), out index) || index < 0 || index > 100) continue;
                    while (commands.Count <= index) commands.Add(null);
                    commands[index] = CommandKey(key.Substring(colon + 1));
                }
                entry.Commands = commands;
                var letters = new char[commands.Count];
                for (var i = 0; i < letters.Length; i++) letters[i] = commands[i] == null ? Pending : Saved;
                entry.Progress = new string(letters);
                if (old != "failed") entry.UncertainRest = "other";
                if (entry.Acked != true && old != "started") entry.Legacy = old;
            }
            entry.Done = null;
            entry.Acked = null;
            entry.Ok = null;
            return true;
        }

        /// <summary>A command as the journal keeps it: enough to tell one command from another, short to write.</summary>
        private static string CommandKey(string command)
        {
            using (var sha = SHA256.Create())
            {
                var bytes = sha.ComputeHash(Encoding.UTF8.GetBytes(command ?? ""));
                return Hex(bytes).Substring(0, 12);
            }
        }

        /// <summary>Writes both files of a pair; false (and logged) when the disk refuses.</summary>
        private bool SavePair(string file, Journal data)
        {
            try
            {
                data.Seq++;
                WriteDurably(file + "_copy", data);
                WriteDurably(file, data);
                return true;
            }
            catch (Exception e)
            {
                PrintError("The journal can't be saved ({0}); nothing more runs until it can.", e.Message);
                return false;
            }
        }

        /// <summary>
        /// Oxide writes a data file by truncating and rewriting it with no flush (DynamicConfigFile.WriteObject:
        /// File.WriteAllText), which a power loss can leave empty. So the file is written beside itself, flushed
        /// to disk, and renamed over the old one (Oxide's sandbox, which forbade System.IO, was removed in 2023).
        /// </summary>
        private static void WriteDurably(string file, Journal data)
        {
            var temp = file + "_new";
            Interface.Oxide.DataFileSystem.WriteObject(temp, data);
            var tempPath = Path.Combine(Interface.Oxide.DataDirectory, temp + ".json");
            var path = Path.Combine(Interface.Oxide.DataDirectory, file + ".json");
            using (var stream = new FileStream(tempPath, FileMode.Open, FileAccess.Write)) stream.Flush(true);
            if (File.Exists(path)) File.Replace(tempPath, path, null);
            else File.Move(tempPath, path);
        }

        private bool SaveJournal()
        {
            return SavePair(JournalFile, journal);
        }

        /// <summary>What the site has to hear about an entry; the entry is reported again whenever it changes.</summary>
        private static string Snapshot(JournalEntry entry)
        {
            if (entry.Legacy != null) return "legacy:" + entry.Legacy + "|" + entry.Message;
            return (entry.Progress ?? "") + "|" + entry.Lease + "|" + (entry.Message ?? "");
        }

        private static bool Settled(JournalEntry entry)
        {
            return entry.Reported == "legacy" || (entry.Reported == Snapshot(entry) && entry.State == Open &&
                (entry.Progress == null || entry.Progress.IndexOf(Given) < 0));
        }

        /// <summary>Moves settled entries to today's archive file, at most once a minute.</summary>
        private void ArchiveSettled()
        {
            if (Interface.Oxide.Now - lastArchived < ArchiveEverySeconds) return;
            lastArchived = Interface.Oxide.Now;
            var moving = new List<string>();
            foreach (var pair in journal.Entries)
            {
                if (!pair.Value.SetAside && Settled(pair.Value)) moving.Add(pair.Key);
            }
            if (moving.Count == 0) return;
            var day = Day(DateTime.UtcNow);
            Journal today;
            if (!archiveDays.TryGetValue(day, out today)) archiveDays[day] = today = new Journal { Version = 3 };
            foreach (var id in moving)
            {
                var entry = journal.Entries[id];
                if (entry.Progress != null && entry.Progress.Trim(Saved).Length == 0)
                {
                    // Everything took effect: the archive keeps only that.
                    entry.All = true;
                    entry.Commands = null;
                    entry.Progress = null;
                    entry.Message = null;
                }
                Unarchive(id);
                today.Entries[id] = entry;
                archive.Entries[id] = entry;
                archivedOn[id] = day;
            }
            // The archive first: an entry in both files is harmless, one in neither would run again.
            if (!SavePair(ArchiveFile(day), today)) return;
            foreach (var id in moving) journal.Entries.Remove(id);
            SaveJournal();
        }

        /// <summary>The journal's entry for a delivery, brought back from the archive when it is there.</summary>
        private JournalEntry Known(string id)
        {
            JournalEntry entry;
            if (journal.Entries.TryGetValue(id, out entry)) return entry;
            if (archive.Entries.TryGetValue(id, out entry)) return entry;
            return null;
        }

        #endregion

        #region Lifecycle

        private bool configured;
        private bool busy;
        private int round;
        private long busySince;
        private Timer pollTimer;
        private Timer heartbeatTimer;
        private byte[] signingKey;
        private bool siteReached;
        private readonly HashSet<string> toldNoRoom = new HashSet<string>();
        private readonly Dictionary<string, float> lastStore = new Dictionary<string, float>();
        /// <summary>Deliveries served and not started (the player could not receive them yet): released with the next poll.</summary>
        private readonly List<Skipped> skipped = new List<Skipped>();
        private bool shuttingDown;
        private bool unloading;
        /// <summary>A save confirmed on disk has turned commands saved: the site hears it once IsSaving is false.</summary>
        private bool reportAfterSave;

        /// <summary>
        /// Oxide calls this after the config and before Init (Plugin.HandleAddedToManager). It writes
        /// oxide/lang/&lt;language&gt;/RustStoreDelivery.json only when missing; an existing file is merged: keys
        /// added in a new version appear, keys no longer used go, and every text the owner wrote is kept (Lang.MergeMessages).
        /// </summary>
        protected override void LoadDefaultMessages()
        {
            lang.RegisterMessages(new Dictionary<string, string>
            {
                ["Waiting"] = "Ожидают выдачи: {0}. Предметы выдаются автоматически, пока вы на сервере.",
                ["Failed"] = "{0} (ошибка выдачи, обратитесь в поддержку)",
                ["Days"] = "{0} ({1} дн.)",
                ["Nothing"] = "Для вас на этом сервере ничего не ожидает выдачи.",
                ["Unavailable"] = "Магазин сейчас недоступен, попробуйте позже.",
                ["TooOften"] = "Подождите несколько секунд перед следующим /store.",
                ["Delivered"] = "Магазин: вы получили «{0}».",
                ["DeliveredDays"] = "Магазин: вы получили «{0}» на {1} дн. Срок действия — в Корзине на сайте.",
                ["Ended"] = "Магазин: срок «{0}» закончился.",
                ["NoRoom"] = "Магазин: освободите {0} ячеек инвентаря, чтобы получить «{1}». Выдача продолжится сама.",
            }, this, "ru");
            lang.RegisterMessages(new Dictionary<string, string>
            {
                ["Waiting"] = "Waiting for delivery: {0}. Items are delivered automatically while you are online.",
                ["Failed"] = "{0} (delivery failed, contact support)",
                ["Days"] = "{0} ({1} d.)",
                ["Nothing"] = "Nothing is waiting for you on this server.",
                ["Unavailable"] = "The store is unavailable right now, try again later.",
                ["TooOften"] = "Wait a few seconds before the next /store.",
                ["Delivered"] = "Store: you received \"{0}\".",
                ["DeliveredDays"] = "Store: you received \"{0}\" for {1} d. See the end date in your inventory on the site.",
                ["Ended"] = "Store: \"{0}\" has ended.",
                ["NoRoom"] = "Store: free {0} inventory slots to receive \"{1}\". Delivery resumes by itself.",
            }, this, "en");
        }

        private void Init()
        {
            configured = ValidateConfig();
        }

        private bool ValidateConfig()
        {
            if (config.ServerId <= 0 || string.IsNullOrEmpty(config.ServerKey))
            {
                PrintError("Set \"Server id\" and \"Server key\" (npm run servers -- add|rotate-key) in oxide/config/RustStoreDelivery.json.");
                return false;
            }
            Uri site;
            if (!Uri.TryCreate(config.SiteUrl.TrimEnd('/'), UriKind.Absolute, out site))
            {
                PrintError("\"Site URL\" is not a URL: {0}", config.SiteUrl);
                return false;
            }
            var local = site.Host == "localhost" || site.Host == "127.0.0.1" || site.Host == "[::1]" || site.Host == "::1";
            if (site.Scheme != "https" && !local)
            {
                PrintError("\"Site URL\" must use https:// (plain http only for localhost).");
                return false;
            }
            if (config.PollIntervalSeconds < MinIntervalSeconds || config.HeartbeatIntervalSeconds < MinIntervalSeconds
                || config.DoorbellPollIntervalSeconds < MinIntervalSeconds || config.DoorbellHeartbeatIntervalSeconds < MinIntervalSeconds)
            {
                PrintWarning("Intervals below {0} s are raised to {0} s.", MinIntervalSeconds);
                config.PollIntervalSeconds = Math.Max(MinIntervalSeconds, config.PollIntervalSeconds);
                config.DoorbellPollIntervalSeconds = Math.Max(MinIntervalSeconds, config.DoorbellPollIntervalSeconds);
                config.HeartbeatIntervalSeconds = Math.Max(MinIntervalSeconds, config.HeartbeatIntervalSeconds);
                config.DoorbellHeartbeatIntervalSeconds = Math.Max(MinIntervalSeconds, config.DoorbellHeartbeatIntervalSeconds);
            }
            using (var sha = SHA256.Create())
            {
                signingKey = sha.ComputeHash(Encoding.UTF8.GetBytes(config.ServerKey));
            }
            return true;
        }

        /// <summary>Oxide.Rust: (true) once the server has started, (false) for a plugin loaded into a running one (RustCore.cs:145, 168).</summary>
        private void OnServerInitialized(bool initial)
        {
            if (!configured) return;
            // Oxide destroys a repeating timer whose callback throws: both callbacks are guarded. The
            // heartbeat runs even when the journal can't be read: the server is alive, only delivery stops,
            // and its deliveries wait for it rather than go to another server.
            heartbeatTimer = timer.Every(config.HeartbeatIntervalSeconds, () => Guarded("heartbeat", SendHeartbeat));
            Guarded("heartbeat", SendHeartbeat);
            if (!LoadJournal(initial)) return;
            UnityEngine.Application.logMessageReceived += OnUnityLog;
            // Delivery starts once the archive is read (over frames): it tells a delivery served again from a new one.
            LoadArchive(() =>
            {
                pollTimer = timer.Every(config.PollIntervalSeconds, () => Guarded("poll", Tick));
                Puts("Started: site {0}, server #{1}, polling every {2} s; {3} journal entries.",
                    config.SiteUrl, config.ServerId, config.PollIntervalSeconds, journal.Entries.Count + archive.Entries.Count);
                Guarded("poll", Tick);
                if (config.Doorbell) Guarded("doorbell", ConnectDoorbell);
            });
        }

        private void Unload()
        {
            unloading = true;
            UnityEngine.Application.logMessageReceived -= OnUnityLog;
            if (pollTimer != null) pollTimer.Destroy();
            if (heartbeatTimer != null) heartbeatTimer.Destroy();
            if (heartbeatSoonTimer != null) heartbeatSoonTimer.Destroy();
            CloseDoorbell();
            if (journal == null) return;
            // Given commands stay given: a reload finds them so (OnServerInitialized(false)), a restart rolls
            // them back; a save running now confirms its noted ones to the next load.
            SaveJournal();
        }

        // The world's saves (decision 131, amending 124). Rust's automated save (SaveRestore.DoAutomatedSave,
        // every server.saveinterval) calls OnServerSave before anything is written (Oxide.Rust Rust.opj: index 0;
        // RustCore.OnServerSave saves Oxide's groups and permissions there), builds the entities' caches over
        // seconds, serializes them in one frame, writes `.new`, copies it over the save and logs "Saved N ents";
        // a failed write logs "Couldn't write save file!". SaveRestore.IsSaving is true all along, also through
        // a failed write, and a `server.save` (SaveRestore.Save(true)) is refused while it is; when it is not, it
        // is the same save at once, hook included. So: what is given at the hook is noted; it counts as saved
        // when Rust logs that the save reached the disk; nothing starts while IsSaving; the site hears it after.

        private void OnServerSave()
        {
            Guarded("save", NoteSave);
        }

        /// <summary>
        /// The save starting now holds every command given so far (nothing is given while IsSaving). Oxide's
        /// groups and permissions are on disk already: RustCore, a core plugin and so called first, has just
        /// written them (RustCore.OnServerSave → permission.SaveData); those commands are saved now.
        /// </summary>
        private void NoteSave()
        {
            if (journal == null) return;
            var oxideSaved = MarkOxideSaved();
            var noted = new List<string>();
            foreach (var pair in journal.Entries)
            {
                if (pair.Value.Progress != null && pair.Value.Progress.IndexOf(Given) >= 0) noted.Add(pair.Key);
            }
            if (noted.Count == 0 && journal.InSave == null && !oxideSaved) return;
            journal.InSave = noted;
            SaveJournal();
            // The site hears those now: a server that dies before the world is written and stays down must
            // not have its grants run again on another server (the site's progress says where they took effect).
            if (oxideSaved && !busy && !unloading) FlushAcks(() => { });
        }

        /// <summary>Given commands that changed Oxide's data turn saved (Oxide has written it); true when there were any.</summary>
        private bool MarkOxideSaved()
        {
            var any = false;
            foreach (var entry in journal.Entries.Values)
            {
                if (entry.InOxide == null) continue;
                if (entry.Progress != null)
                {
                    var letters = entry.Progress.ToCharArray();
                    foreach (var i in entry.InOxide)
                    {
                        if (i < letters.Length && letters[i] == Given)
                        {
                            letters[i] = Saved;
                            any = true;
                        }
                    }
                    entry.Progress = new string(letters);
                }
                entry.InOxide = null;
            }
            return any;
        }

        /// <summary>Rust's own lines about its save (SaveRestore.Save, DoAutomatedSave), heard on the main thread as they are logged.</summary>
        private void OnUnityLog(string condition, string stackTrace, UnityEngine.LogType type)
        {
            if (condition == null || journal == null) return;
            if (condition.StartsWith("Saved ", StringComparison.Ordinal) && condition.Contains(" ents"))
                Guarded("save", ConfirmSave);
            else if (condition.StartsWith("Couldn't write save file!", StringComparison.Ordinal) || condition.StartsWith("Error when saving to disk", StringComparison.Ordinal))
                Guarded("save", SaveFailed);
            else if (condition == "Saving complete" && reportAfterSave)
                NextTick(ReportAfterSave);
        }

        /// <summary>The save is on disk: what was noted at its hook counts as delivered.</summary>
        private void ConfirmSave()
        {
            var noted = journal.InSave;
            if (noted == null) return;
            journal.InSave = null;
            foreach (var id in noted)
            {
                JournalEntry entry;
                if (journal.Entries.TryGetValue(id, out entry) && entry.Progress != null && entry.Progress.IndexOf(Given) >= 0)
                    entry.Progress = entry.Progress.Replace(Given, Saved);
            }
            SaveJournal();
            reportAfterSave = noted.Count > 0;
        }

        private void SaveFailed()
        {
            if (journal.InSave == null) return;
            journal.InSave = null;
            SaveJournal();
            PrintWarning("Rust could not write its save: the deliveries given before it count once a later save reaches the disk.");
        }

        /// <summary>«Выдано» within one save interval: the site hears it once the save is over, not at the next poll.</summary>
        private void ReportAfterSave()
        {
            if (!reportAfterSave || unloading || journal == null) return;
            if (SaveRestore.IsSaving)
            {
                timer.Once(0.5f, ReportAfterSave);
                return;
            }
            reportAfterSave = false;
            if (!busy) FlushAcks(() => { });
        }

        /// <summary>Saves Oxide's data (permission.SaveData) and the world, as the automated save does.</summary>
        private void SaveWorldAndOxide()
        {
            Interface.Oxide.OnSave();
            ConsoleSystem.Run(ConsoleSystem.Option.Server.Quiet(), "server.save");
        }

        /// <summary>
        /// `quit`: Rust's own shutdown save comes after the plugins are unloaded, where this plugin can't hear it;
        /// so the plugin saves now and hears it reach the disk. During an automated save it is refused, as Rust's
        /// own will be: the given commands stay given and a restart gives them again.
        /// </summary>
        private void OnServerShutdown()
        {
            shuttingDown = true;
            if (journal == null || !AnyGiven()) return;
            // Oxide saves its groups and permissions as it shuts down (OxideMod.OnShutdown), save or no save.
            if (SaveRestore.IsSaving) Guarded("save", () => MarkOxideSaved());
            else Guarded("save", SaveWorldAndOxide);
        }

        private bool AnyGiven()
        {
            foreach (var entry in journal.Entries.Values)
            {
                if (entry.Progress != null && entry.Progress.IndexOf(Given) >= 0) return true;
            }
            return false;
        }

        private void Guarded(string what, Action action)
        {
            try
            {
                action();
            }
            catch (Exception e)
            {
                PrintError("The {0} step failed ({1}: {2}); it runs again on the next interval.", what, e.GetType().Name, e.Message);
                if (what == "poll") busy = false;
            }
        }

        #endregion

        #region Signing

        private static long UnixSeconds()
        {
            return DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        }

        private static string Hex(byte[] bytes)
        {
            var builder = new StringBuilder(bytes.Length * 2);
            foreach (var b in bytes) builder.Append(b.ToString("x2"));
            return builder.ToString();
        }

        private string Hmac(string message)
        {
            using (var hmac = new HMACSHA256(signingKey))
            {
                return Hex(hmac.ComputeHash(Encoding.UTF8.GetBytes(message)));
            }
        }

        private static bool FixedTimeEquals(string a, string b)
        {
            if (a == null || b == null || a.Length != b.Length) return false;
            var diff = 0;
            for (var i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }

        /// <summary>Whether an answer's signature is ours over the request's signature, the answer's kind and its lines.</summary>
        private bool AnswerVerifies(string requestSignature, string kind, List<string> lines, string signature)
        {
            var canonical = requestSignature + "\n" + kind + "\n" + string.Join("\n", lines.ToArray());
            return FixedTimeEquals(Hmac(canonical), signature);
        }

        private static readonly RandomNumberGenerator Random = RandomNumberGenerator.Create();

        /// <summary>What the signature covers of the address: its path and query, as in the request line (decision 142).</summary>
        private static string RequestTarget(string url) => new Uri(url).PathAndQuery;

        /// <summary>
        /// Serializes, signs and sends; the callback gets (status, body, request signature). The fields get
        /// a random "nonce": the site takes each signature once, and two equal requests in one second
        /// would otherwise sign alike and the second be refused as a replay.
        /// </summary>
        private void Post(string path, Dictionary<string, object> fields, Action<int, string, string> callback)
        {
            var nonce = new byte[8];
            Random.GetBytes(nonce);
            fields["nonce"] = Hex(nonce);
            var body = JsonConvert.SerializeObject(fields);
            var url = SiteAddress(path);
            var headers = SignedHeaders("POST", url, body);
            headers["Content-Type"] = "application/json";
            var signature = headers["X-Signature"];
            webrequest.Enqueue(url, body, (code, response) => callback(code, response, signature), this,
                RequestMethod.POST, headers, config.RequestTimeoutSeconds);
        }

        private string SiteAddress(string path) => config.SiteUrl.TrimEnd('/') + path;

        /// <summary>The headers every request to the site carries: this server's id, the time and the signature over both and the request.</summary>
        private Dictionary<string, string> SignedHeaders(string method, string url, string body)
        {
            var timestamp = UnixSeconds().ToString(CultureInfo.InvariantCulture);
            return new Dictionary<string, string>
            {
                ["X-Server-Id"] = config.ServerId.ToString(CultureInfo.InvariantCulture),
                ["X-Timestamp"] = timestamp,
                ["X-Signature"] = Hmac(timestamp + "\n" + method + "\n" + RequestTarget(url) + "\n" + body),
            };
        }

        #endregion

        #region Players

        private static BasePlayer FindPlayer(string steamId)
        {
            foreach (var player in BasePlayer.activePlayerList)
            {
                if (player != null && player.UserIDString == steamId) return player;
            }
            return null;
        }

        /// <summary>
        /// Online, alive, awake, not wounded and done connecting: items given to anyone else are lost
        /// at respawn, and a message is never seen.
        /// </summary>
        private static bool CanReceive(BasePlayer player)
        {
            return player != null && player.IsConnected && !player.IsDead() && !player.IsSleeping() && !player.IsWounded()
                && !player.HasPlayerFlag(BasePlayer.PlayerFlags.ReceivingSnapshot);
        }

        private static List<string> SteamIds(bool receivingOnly)
        {
            var ids = new List<string>();
            foreach (var player in BasePlayer.activePlayerList)
            {
                if (player == null || (receivingOnly && !CanReceive(player))) continue;
                ids.Add(player.UserIDString);
            }
            return ids;
        }

        #endregion

        #region Heartbeat

        private void SendHeartbeat()
        {
            lastHeartbeatSecond = UnixSeconds();
            var online = SteamIds(false);
            var fields = new Dictionary<string, object>
            {
                // The site keeps 200 characters of it.
                ["hostname"] = Cut(ConVar.Server.hostname ?? "", 200),
                ["players"] = online.Count,
                ["max_players"] = ConVar.Server.maxplayers,
                ["queue"] = ServerMgr.Instance != null ? ServerMgr.Instance.connectionQueue.Queued : 0,
                ["map"] = ConVar.Server.level,
                ["map_size"] = ConVar.Server.worldsize,
                ["map_seed"] = ConVar.Server.seed,
                ["wiped_at"] = new DateTimeOffset(DateTime.SpecifyKind(SaveRestore.SaveCreatedTime, DateTimeKind.Utc)).ToUnixTimeSeconds(),
                ["online"] = online,
                ["doorbell"] = doorbellOpen,
            };
            Post("/api/game/heartbeat", fields, (code, response, signature) =>
            {
                if (code == 200)
                {
                    if (!siteReached) Puts("Connected to {0} as server #{1}: heartbeat accepted.", config.SiteUrl, config.ServerId);
                    siteReached = true;
                    return;
                }
                siteReached = false;
                PrintWarning("Heartbeat answered {0}: {1}{2}", code, Short(response), RefusedHint(code));
            });
        }

        /// <summary>Unix second of the last heartbeat sent.</summary>
        private long lastHeartbeatSecond;
        private Timer heartbeatSoonTimer;

        /// <summary>
        /// Heartbeats every `seconds` from now on, the first at once, so the site learns the doorbell's state as it
        /// changes (decision 151). The site keeps a heartbeat only when signed in a later second than the one it has
        /// (its replay guard): one due in the same second as the last is sent a second later, with the state then.
        /// </summary>
        private void SetHeartbeatInterval(float seconds)
        {
            if (heartbeatTimer == null || unloading) return;
            heartbeatTimer.Destroy();
            heartbeatTimer = timer.Every(seconds, () => Guarded("heartbeat", SendHeartbeat));
            if (UnixSeconds() > lastHeartbeatSecond) Guarded("heartbeat", SendHeartbeat);
            else if (heartbeatSoonTimer == null) heartbeatSoonTimer = timer.Once(1f, () =>
            {
                heartbeatSoonTimer = null;
                Guarded("heartbeat", SendHeartbeat);
            });
        }

        // A 401 is the site refusing the request's signature: a wrong id or key, or a clock far off.
        private static string RefusedHint(int code)
        {
            return code == 401 ? " Check \"Server id\", \"Server key\" and this machine's clock." : "";
        }

        #endregion

        #region Doorbell

        // The doorbell (decision 148; the site's side and the protocol: decision 146): a WebSocket the site rings when a delivery
        // for this server's type becomes due. A ring means only "poll now": every delivery still comes through
        // the signed poll, lease and ack above, so a forged, lost or late ring changes nothing but timing.
        //
        // Threads: System.Net.WebSockets.ClientWebSocket (System.dll, which Oxide's compiler references for every
        // plugin; Oxide keeps websocket-sharp from plugins). One background thread per socket connects and
        // receives; everything it learns reaches the main thread through Interface.Oxide.NextTick (which Oxide
        // makes safe to call from any thread), and all the state below, the timers and the polls live on the main thread. A socket's
        // thread carries its generation: what an old socket says after it was replaced or closed is dropped.

        private const float DoorbellPingSeconds = 45f;
        private const float DoorbellPongSeconds = 20f;
        private const float DoorbellFirstBackoffSeconds = 1f;
        private const float DoorbellMaxBackoffSeconds = 60f;
        /// <summary>Open this long, a socket that drops starts its backoff again at 1 s.</summary>
        private const float DoorbellSteadySeconds = 60f;
        /// <summary>After a refusal that retrying won't change (an old site, a proxy that refuses upgrades, a wrong key).</summary>
        private const float DoorbellRefusedSeconds = 600f;
        /// <summary>
        /// Upgrades in a row answered without upgrading while the site's probe said it would have taken them: then
        /// something on the way refuses upgrades. One alone may be a proxy's passing 502 while the site restarts.
        /// </summary>
        private const int RefusedOnTheWayVerdict = 2;
        private const long RingSkewSeconds = 300;
        private const int RingMaxBytes = 4096;

        private class Ring
        {
            [JsonProperty("ring")] public long Number;
            [JsonProperty("t")] public long Time;
            [JsonProperty("sig")] public string Signature;
        }

        private ClientWebSocket doorbellSocket;
        private CancellationTokenSource doorbellCancel;
        private int doorbellGeneration;
        private bool doorbellOpen;
        /// <summary>The last ring taken on this socket: a ring must count higher.</summary>
        private long lastRing;
        private bool toldIgnoredRing;
        /// <summary>Whether the owner has heard that the doorbell can't connect, until it connects again.</summary>
        private bool toldUnreachable;
        /// <summary>The status of the last refusal the owner was told of (0: none since the doorbell last connected; 204: refused on the way).</summary>
        private int toldRefused;
        private float doorbellBackoff;
        /// <summary>The X-Timestamp the current socket's upgrade was signed with: the probe names it (decision 149).</summary>
        private string doorbellSignedAt;
        /// <summary>Upgrades in a row the site would have taken but that were answered without upgrading.</summary>
        private int refusedOnTheWay;
        private Timer doorbellPingTimer;
        private Timer doorbellPongTimer;
        private Timer doorbellRetryTimer;
        private Timer doorbellSteadyTimer;
        /// <summary>A ring came while a poll round ran: one more round follows it.</summary>
        private bool pollAgain;

        private Uri DoorbellAddress()
        {
            var address = new UriBuilder(SiteAddress("/api/game/doorbell"));
            // https → wss; plain http only for localhost (ValidateConfig).
            address.Scheme = address.Scheme == "https" ? "wss" : "ws";
            return address.Uri;
        }

        private void ConnectDoorbell()
        {
            if (unloading || !config.Doorbell) return;
            DestroyDoorbellTimers();
            var generation = ++doorbellGeneration;
            var socket = new ClientWebSocket();
            // The protocol's own "ping" text keeps the socket open; no unsolicited pongs besides.
            socket.Options.KeepAliveInterval = TimeSpan.Zero;
            var signed = SignedHeaders("GET", SiteAddress("/api/game/doorbell"), "");
            foreach (var header in signed) socket.Options.SetRequestHeader(header.Key, header.Value);
            doorbellSignedAt = signed["X-Timestamp"];
            var cancel = new CancellationTokenSource();
            doorbellSocket = socket;
            doorbellCancel = cancel;
            var address = DoorbellAddress();
            var timeout = TimeSpan.FromSeconds(config.RequestTimeoutSeconds);
            var thread = new Thread(() => RunDoorbell(socket, address, timeout, cancel.Token, generation))
            {
                IsBackground = true,
                Name = "RustStoreDelivery doorbell",
            };
            thread.Start();
        }

        /// <summary>The socket's own thread: connects, then reads frames until the socket ends. Touches no plugin state.</summary>
        private void RunDoorbell(ClientWebSocket socket, Uri address, TimeSpan timeout, CancellationToken cancel, int generation)
        {
            try
            {
                using (var connecting = CancellationTokenSource.CreateLinkedTokenSource(cancel))
                {
                    connecting.CancelAfter(timeout);
                    socket.ConnectAsync(address, connecting.Token).GetAwaiter().GetResult();
                }
            }
            catch (Exception e)
            {
                // Mono's ClientWebSocket (corefx's managed handshake) drops the status of an answer without
                // 101 and throws with no inner exception; a network or TLS failure has one.
                var answered = e is WebSocketException && e.InnerException == null;
                var why = Reason(e);
                Interface.Oxide.NextTick(() => Guarded("doorbell", () => DoorbellFailed(generation, why, answered)));
                socket.Dispose();
                return;
            }
            Interface.Oxide.NextTick(() => Guarded("doorbell", () => DoorbellOpened(generation)));
            string reason;
            try
            {
                reason = ReadRings(socket, cancel, generation);
            }
            catch (Exception e)
            {
                reason = Reason(e);
            }
            Interface.Oxide.NextTick(() => Guarded("doorbell", () => DoorbellClosed(generation, reason)));
            socket.Dispose();
        }

        /// <summary>Hands each text frame to the main thread; answers why the socket ended.</summary>
        private string ReadRings(ClientWebSocket socket, CancellationToken cancel, int generation)
        {
            var buffer = new byte[RingMaxBytes];
            while (true)
            {
                var length = 0;
                WebSocketReceiveResult frame;
                do
                {
                    if (length == buffer.Length) return "a message longer than " + RingMaxBytes + " bytes";
                    frame = socket.ReceiveAsync(new ArraySegment<byte>(buffer, length, buffer.Length - length), cancel).GetAwaiter().GetResult();
                    length += frame.Count;
                } while (!frame.EndOfMessage && frame.MessageType != WebSocketMessageType.Close);
                if (frame.MessageType == WebSocketMessageType.Close)
                {
                    if (socket.State == WebSocketState.CloseReceived)
                        socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, "", CancellationToken.None).Wait(TimeSpan.FromSeconds(5));
                    var status = frame.CloseStatus.HasValue ? ((int)frame.CloseStatus.Value).ToString(CultureInfo.InvariantCulture) : "no code";
                    return "the site closed it: " + status + (string.IsNullOrEmpty(frame.CloseStatusDescription) ? "" : " " + frame.CloseStatusDescription);
                }
                if (frame.MessageType != WebSocketMessageType.Text) continue;
                var text = Encoding.UTF8.GetString(buffer, 0, length);
                Interface.Oxide.NextTick(() => Guarded("doorbell", () => DoorbellMessage(generation, text)));
            }
        }

        private static string Reason(Exception e)
        {
            var inner = e;
            while (inner.InnerException != null) inner = inner.InnerException;
            return inner == e || inner.Message == e.Message ? e.Message : e.Message + ": " + inner.Message;
        }

        private void DoorbellOpened(int generation)
        {
            if (generation != doorbellGeneration) return;
            doorbellOpen = true;
            toldUnreachable = false;
            toldRefused = 0;
            refusedOnTheWay = 0;
            lastRing = 0;
            toldIgnoredRing = false;
            Puts("Doorbell connected: deliveries arrive as soon as they are due; safety poll every {0} s, heartbeat every {1} s.",
                config.DoorbellPollIntervalSeconds, config.DoorbellHeartbeatIntervalSeconds);
            SetPollInterval(config.DoorbellPollIntervalSeconds);
            SetHeartbeatInterval(config.DoorbellHeartbeatIntervalSeconds);
            doorbellPingTimer = timer.Every(DoorbellPingSeconds, () => Guarded("doorbell", PingDoorbell));
            doorbellSteadyTimer = timer.Once(DoorbellSteadySeconds, () => doorbellBackoff = 0f);
            // Rings sent while no socket was open are lost: one poll now finds what they were for.
            RequestPoll();
        }

        private void DoorbellMessage(int generation, string text)
        {
            if (generation != doorbellGeneration || !doorbellOpen) return;
            if (text == "pong")
            {
                if (doorbellPongTimer != null) doorbellPongTimer.Destroy();
                doorbellPongTimer = null;
                return;
            }
            if (!RingVerifies(text))
            {
                if (toldIgnoredRing) return;
                toldIgnoredRing = true;
                PrintWarning("Doorbell: ignored an unsigned ring (a wrong signature, clock or counter); deliveries still come with the polls.");
                return;
            }
            RequestPoll();
        }

        /// <summary>Signed with this server's key over its id, the counter and the time; within 5 minutes; counting up on this socket.</summary>
        private bool RingVerifies(string text)
        {
            Ring ring;
            try
            {
                ring = JsonConvert.DeserializeObject<Ring>(text);
            }
            catch (JsonException)
            {
                return false;
            }
            if (ring == null || ring.Signature == null) return false;
            var signed = "doorbell\n" + config.ServerId.ToString(CultureInfo.InvariantCulture) + "\n"
                + ring.Number.ToString(CultureInfo.InvariantCulture) + "\n" + ring.Time.ToString(CultureInfo.InvariantCulture);
            if (!FixedTimeEquals(Hmac(signed), ring.Signature)) return false;
            if (Math.Abs(UnixSeconds() - ring.Time) > RingSkewSeconds || ring.Number <= lastRing) return false;
            lastRing = ring.Number;
            return true;
        }

        /// <summary>The ordinary poll, now; after the running round when one runs.</summary>
        private void RequestPoll()
        {
            if (journal == null || pollTimer == null || unloading) return;
            if (busy)
            {
                pollAgain = true;
                return;
            }
            Guarded("poll", Tick);
        }

        private void PingDoorbell()
        {
            var socket = doorbellSocket;
            if (!doorbellOpen || socket == null || doorbellPongTimer != null) return;
            var generation = doorbellGeneration;
            doorbellPongTimer = timer.Once(DoorbellPongSeconds, () => Guarded("doorbell", () => DropDoorbell(generation, "no pong within " + DoorbellPongSeconds + " s")));
            try
            {
                // Sent on the thread pool; the main thread never waits for the network.
                socket.SendAsync(new ArraySegment<byte>(Encoding.UTF8.GetBytes("ping")), WebSocketMessageType.Text, true, CancellationToken.None);
            }
            catch (Exception e)
            {
                DropDoorbell(generation, "ping failed: " + e.Message);
            }
        }

        /// <summary>The socket is dead as far as the plugin is concerned: let go of it and fall back.</summary>
        private void DropDoorbell(int generation, string why)
        {
            if (generation != doorbellGeneration) return;
            AbandonSocket();
            DoorbellClosed(doorbellGeneration, why);
        }

        private void DoorbellClosed(int generation, string why)
        {
            if (generation != doorbellGeneration) return;
            var wasOpen = doorbellOpen;
            ForgetSocket();
            if (wasOpen)
            {
                PrintWarning("Doorbell dropped ({0}); polling every {1} s until it reconnects.", why, config.PollIntervalSeconds);
                SetPollInterval(config.PollIntervalSeconds);
                // Without the doorbell the site allows a heartbeat 3 minutes again: it hears of the drop now.
                SetHeartbeatInterval(config.HeartbeatIntervalSeconds);
                // A ring may have been lost with the socket.
                RequestPoll();
            }
            RetryDoorbell();
        }

        private void DoorbellFailed(int generation, string why, bool answeredWithoutUpgrade)
        {
            if (generation != doorbellGeneration) return;
            ForgetSocket();
            if (!answeredWithoutUpgrade)
            {
                TellUnreachable(why);
                RetryDoorbell();
                return;
            }
            // The site (or something before it) answered without upgrading; ClientWebSocket doesn't say how. A plain
            // signed request asks the site whether it would have taken this upgrade (decision 149): 204 if so, else
            // the upgrade's own refusal. A site before the probe answers 426 to any plain request, as it always did.
            var url = SiteAddress("/api/game/doorbell?probe=" + doorbellSignedAt);
            var probing = doorbellGeneration;
            webrequest.Enqueue(url, null, (code, response) => Guarded("doorbell", () =>
            {
                if (probing != doorbellGeneration || unloading) return;
                if (code == 204)
                {
                    DoorbellRefusedOnTheWay();
                    return;
                }
                refusedOnTheWay = 0;
                if (code == 401 || code == 403 || code == 404 || code == 426)
                {
                    // Said once; every 10 minutes again only if the answer changed.
                    if (code != toldRefused)
                        PrintWarning("Doorbell refused ({0}: {1}); polling every {2} s, trying the doorbell again every {3} minutes.{4}",
                            code, Short(response), config.PollIntervalSeconds, DoorbellRefusedSeconds / 60, RefusedHint(code));
                    toldRefused = code;
                    RestDoorbell();
                    return;
                }
                // A replayed connect (409), the site restarting behind its proxy (502), no answer: it passes.
                TellUnreachable("answered " + code + " without upgrading");
                RetryDoorbell();
            }), this, RequestMethod.GET, SignedHeaders("GET", url, ""), config.RequestTimeoutSeconds);
        }

        /// <summary>The site would have taken the upgrade: once is a passing failure on the way; twice in a row, a proxy that refuses upgrades.</summary>
        private void DoorbellRefusedOnTheWay()
        {
            if (++refusedOnTheWay < RefusedOnTheWayVerdict)
            {
                TellUnreachable("answered without upgrading, though the site would have taken it");
                RetryDoorbell();
                return;
            }
            if (toldRefused != 204)
                PrintWarning("Doorbell refused on the way: the site takes it, but something between (a proxy) does not pass the WebSocket upgrade; polling every {0} s, trying the doorbell again every {1} minutes. Let the proxy pass the Upgrade and Connection headers.",
                    config.PollIntervalSeconds, DoorbellRefusedSeconds / 60);
            toldRefused = 204;
            RestDoorbell();
        }

        /// <summary>A refusal that retrying won't change: the doorbell rests 10 minutes, the plugin polls meanwhile.</summary>
        private void RestDoorbell()
        {
            toldUnreachable = true;
            doorbellBackoff = 0f;
            doorbellRetryTimer = timer.Once(DoorbellRefusedSeconds, () => Guarded("doorbell", ConnectDoorbell));
        }

        private void TellUnreachable(string why)
        {
            if (toldUnreachable) return;
            toldUnreachable = true;
            PrintWarning("Doorbell can't connect ({0}); polling every {1} s and trying again.", why, config.PollIntervalSeconds);
        }

        /// <summary>Exponential backoff with full jitter: a random wait up to 1, 2, 4 … 60 s.</summary>
        private void RetryDoorbell()
        {
            if (unloading) return;
            doorbellBackoff = doorbellBackoff <= 0f ? DoorbellFirstBackoffSeconds : Math.Min(DoorbellMaxBackoffSeconds, doorbellBackoff * 2f);
            var bytes = new byte[4];
            Random.GetBytes(bytes);
            var wait = doorbellBackoff * (BitConverter.ToUInt32(bytes, 0) / (float)uint.MaxValue);
            doorbellRetryTimer = timer.Once(Math.Max(0.01f, wait), () => Guarded("doorbell", ConnectDoorbell));
        }

        /// <summary>Changes the poll timer's interval (the doorbell connected or not); before the first poll there is none yet.</summary>
        private void SetPollInterval(float seconds)
        {
            if (pollTimer == null || unloading) return;
            pollTimer.Destroy();
            pollTimer = timer.Every(seconds, () => Guarded("poll", Tick));
        }

        private void DestroyDoorbellTimers()
        {
            foreach (var t in new[] { doorbellPingTimer, doorbellPongTimer, doorbellRetryTimer, doorbellSteadyTimer })
            {
                if (t != null) t.Destroy();
            }
            doorbellPingTimer = doorbellPongTimer = doorbellRetryTimer = doorbellSteadyTimer = null;
        }

        /// <summary>Stops listening to the current socket: its thread's later news are dropped (a new generation).</summary>
        private void ForgetSocket()
        {
            DestroyDoorbellTimers();
            doorbellOpen = false;
            doorbellSocket = null;
            doorbellCancel = null;
            doorbellGeneration++;
        }

        /// <summary>Cuts the socket without a closing handshake (it stopped answering); its thread ends and disposes it.</summary>
        private void AbandonSocket()
        {
            if (doorbellCancel != null) doorbellCancel.Cancel();
            if (doorbellSocket != null) doorbellSocket.Abort();
        }

        /// <summary>Unload: the site hears a normal close; the socket's thread reads the site's answer and ends.</summary>
        private void CloseDoorbell()
        {
            var socket = doorbellSocket;
            var cancel = doorbellCancel;
            var open = doorbellOpen;
            ForgetSocket();
            if (socket == null) return;
            if (open && socket.State == WebSocketState.Open)
            {
                try
                {
                    socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, "plugin unloaded", CancellationToken.None);
                    return;
                }
                catch (Exception)
                {
                    // already failing: cut it below
                }
            }
            if (cancel != null) cancel.Cancel();
            socket.Abort();
        }

        #endregion

        #region Delivery

        /// <summary>
        /// The most deliveries the site serves in one answer (MAX_DELIVERIES_PER_POLL in
        /// worker/services/game/delivery-rules.ts; the answer doesn't carry it): an answer this full may have left
        /// more due, so the plugin polls again at once instead of at its next timer. A site serving fewer a poll
        /// only loses that; one serving more costs a poll that finds nothing.
        /// </summary>
        private const int SiteMaxDeliveriesPerPoll = 20;

        private void Tick()
        {
            if (journal == null) return;
            // A lost callback must not stop delivery forever; only the round that set "busy" clears it.
            if (busy && UnixSeconds() - busySince < 3 * (long)config.RequestTimeoutSeconds + 10) return;
            var mine = ++round;
            busy = true;
            busySince = UnixSeconds();
            FlushAcks(() => Poll(() => FlushAcks(() =>
            {
                ArchiveSettled();
                if (round != mine) return;
                busy = false;
                // Rings heard while this round ran: one more round, whatever their number.
                if (!pollAgain) return;
                pollAgain = false;
                NextTick(() => Guarded("poll", Tick));
            })));
        }

        private void Poll(Action done)
        {
            var sending = new List<Skipped>(skipped);
            var fields = new Dictionary<string, object>
            {
                ["online"] = SteamIds(true),
                ["skipped"] = sending,
                ["site_seq"] = journal.SiteSeq,
            };
            // Everything the restored site had forgotten has been sent again and accepted.
            var resynced = journal.Resync.HasValue && NothingToReport();
            if (resynced) fields["resynced"] = true;
            Post("/api/game/queue", fields, (code, response, requestSignature) =>
            {
                try
                {
                    if (code != 200)
                    {
                        PrintWarning("Queue answered {0}: {1}{2}", code, Short(response), RefusedHint(code));
                        return;
                    }
                    // The site has read which deliveries we did not start.
                    foreach (var released in sending) skipped.Remove(released);
                    var queue = JsonConvert.DeserializeObject<QueueResponse>(response);
                    if (queue == null || queue.Deliveries == null) return;
                    var resync = queue.ResyncFrom.HasValue ? queue.ResyncFrom.Value.ToString(CultureInfo.InvariantCulture) : "";
                    if (!FixedTimeEquals(Hmac(requestSignature + "\n" + resync + "\n" + Canonical(queue.Deliveries)), queue.ResponseSignature))
                    {
                        PrintError("Queue answer has a wrong signature; nothing was run. Check \"Site URL\" and any proxy in between.");
                        return;
                    }
                    if (queue.ResyncFrom.HasValue)
                    {
                        if (journal.Resync != queue.ResyncFrom) StartResync(queue.ResyncFrom.Value);
                        return;
                    }
                    if (resynced)
                    {
                        journal.Resync = null;
                        SaveJournal();
                        Puts("The site has every result again; delivery goes on.");
                    }
                    // A full answer that ran something: more may be due; the round polls again once it has acknowledged.
                    // One that ran nothing (every delivery waits for its player) waits for the timer, never spins.
                    if (RunAll(queue.Deliveries) > 0 && queue.Deliveries.Count >= SiteMaxDeliveriesPerPoll) pollAgain = true;
                }
                catch (Exception e)
                {
                    PrintError("Queue answer could not be handled: {0}", e.Message);
                }
                finally
                {
                    done();
                }
            });
        }

        private static string Canonical(List<Delivery> deliveries)
        {
            var lines = new List<string> { "v3" };
            foreach (var d in deliveries)
            {
                lines.Add(d.DeliveryId);
                lines.Add(d.Kind);
                lines.Add(d.SteamId);
                lines.Add(d.RequiresOnline ? "1" : "0");
                lines.Add(d.Title ?? "");
                lines.Add(d.DurationDays.HasValue ? d.DurationDays.Value.ToString(CultureInfo.InvariantCulture) : "");
                lines.Add(d.Lease.ToString(CultureInfo.InvariantCulture));
                lines.Add(d.Retry.ToString(CultureInfo.InvariantCulture));
                var done = new List<string>();
                foreach (var index in d.Done ?? new List<int>()) done.Add(index.ToString(CultureInfo.InvariantCulture));
                lines.Add(string.Join(",", done.ToArray()));
                var commands = d.Commands ?? new List<string>();
                lines.Add(commands.Count.ToString(CultureInfo.InvariantCulture));
                lines.AddRange(commands);
            }
            return string.Join("\n", lines.ToArray());
        }

        /// <summary>A served delivery this answer will run: its journal entry, already marked "running".</summary>
        private class Work
        {
            public Delivery Delivery;
            public JournalEntry Entry;
            public JournalEntry Before;
            public BasePlayer Player;
        }

        /// <summary>
        /// Runs an answer's deliveries: each is prepared (what is left to run, whether it may run now),
        /// all of them are journaled "running" in one write before the first command, then run; their results
        /// are written with the acknowledgement that reports them. A delivery that can't start now is
        /// released with the next poll. Answers how many were started.
        /// </summary>
        private int RunAll(List<Delivery> deliveries)
        {
            var work = new List<Work>();
            foreach (var delivery in deliveries)
            {
                try
                {
                    var prepared = Prepare(delivery);
                    if (prepared != null) work.Add(prepared);
                }
                catch (Exception e)
                {
                    PrintError("Delivery {0} could not be handled: {1}", delivery.DeliveryId, e.Message);
                }
            }
            if (work.Count == 0) return 0;
            if (!SaveJournal())
            {
                // Not on disk: run nothing, and forget it in memory too.
                foreach (var item in work)
                {
                    if (item.Before == null) journal.Entries.Remove(item.Delivery.DeliveryId);
                    else journal.Entries[item.Delivery.DeliveryId] = item.Before;
                    Skip(item.Delivery);
                }
                return 0;
            }
            foreach (var item in work)
            {
                try
                {
                    RunCommands(item);
                }
                catch (Exception e)
                {
                    PrintError("Delivery {0} could not be handled: {1}", item.Delivery.DeliveryId, e.Message);
                }
            }
            // No write here: until a save the disk may keep "running" — after a crash that reads as rolled
            // back, which it is. The acknowledgement's write, the save hook's and Unload's record the rest.
            return work.Count;
        }

        private void Skip(Delivery delivery)
        {
            skipped.Add(new Skipped { DeliveryId = delivery.DeliveryId, Lease = delivery.Lease });
        }

        private static JournalEntry Copy(JournalEntry entry)
        {
            return entry == null ? null : JsonConvert.DeserializeObject<JournalEntry>(JsonConvert.SerializeObject(entry));
        }

        /// <summary>
        /// What is left of a served delivery: a command the site counts done, or this server gave (by its
        /// place and text), never runs again; an uncertain one only after an operator's «Повторить».
        /// </summary>
        private static char LetterFor(Delivery delivery, int index, JournalEntry known)
        {
            var command = delivery.Commands[index];
            if (delivery.Done != null && delivery.Done.Contains(index)) return Saved;
            if (known == null) return Pending;
            if (known.All) return Saved;
            var sameCommand = known.Commands != null && index < known.Commands.Count && known.Commands[index] == CommandKey(command)
                && known.Progress != null && index < known.Progress.Length;
            if (sameCommand)
            {
                var letter = known.Progress[index];
                if (letter == Saved || letter == Given) return letter;
                if (letter == Uncertain) return delivery.Retry > known.Retry ? Pending : Uncertain;
                return Pending;
            }
            if (known.UncertainRest != null && delivery.Retry <= known.Retry &&
                (known.UncertainRest == "all" || !IsWorldCommand(command))) return Uncertain;
            return Pending;
        }

        private Work Prepare(Delivery delivery)
        {
            if (string.IsNullOrEmpty(delivery.DeliveryId) || delivery.Commands == null) return null;
            var known = Known(delivery.DeliveryId);
            // Refused as malformed by the site (signed): kept for the operator; its lease stays ours.
            if (known != null && known.SetAside) return null;
            if (known != null && known.State == Running) return null;

            var letters = new char[delivery.Commands.Count];
            var toRun = 0;
            for (var i = 0; i < letters.Length; i++)
            {
                letters[i] = LetterFor(delivery, i, known);
                if (letters[i] == Pending) toRun++;
            }
            var entry = Copy(known) ?? new JournalEntry();
            entry.State = Open;
            entry.Commands = delivery.Commands.ConvertAll(CommandKey);
            entry.Progress = new string(letters);
            entry.Lease = delivery.Lease;
            entry.Retry = Math.Max(entry.Retry, delivery.Retry);
            entry.All = false;
            entry.UncertainRest = null;
            entry.Legacy = null;
            entry.Message = null;
            if (entry.Reported == "legacy") entry.Reported = null;
            entry.RecordedAt = UnixSeconds();

            if (toRun == 0)
            {
                // Nothing left to run here: the site hears what this server knows.
                journal.Entries[delivery.DeliveryId] = entry;
                Unarchive(delivery.DeliveryId);
                return null;
            }

            var player = FindPlayer(delivery.SteamId);
            // The player left or can't receive now (dead, asleep, wounded, connecting), or the world is being
            // saved (SaveRestore.IsSaving, decision 131): released with the next poll, served again when it can run.
            if ((delivery.RequiresOnline && !CanReceive(player)) || SaveRestore.IsSaving)
            {
                Skip(delivery);
                return null;
            }

            var refusal = Refusal(delivery);
            if (refusal != null)
            {
                PrintError("Delivery {0} refused without running: {1}", delivery.DeliveryId, refusal);
                // Nothing runs; what ran before stays known (a retry after the fix runs only the rest).
                var refused = new string(letters);
                var first = refused.IndexOf(Pending);
                entry.Progress = refused.Substring(0, first) + FailedHere + refused.Substring(first + 1);
                entry.Message = Truncate(refusal);
                journal.Entries[delivery.DeliveryId] = entry;
                Unarchive(delivery.DeliveryId);
                return null;
            }

            var slots = SlotsNeeded(delivery, letters);
            if (slots > 0 && player != null && FreeSlots(player) < slots)
            {
                // Never give into a full inventory: wait, tell the player once.
                if (toldNoRoom.Add(delivery.DeliveryId))
                {
                    SendReply(player, string.Format(Message("NoRoom", player.UserIDString), slots - FreeSlots(player), TitleOf(delivery)));
                }
                Skip(delivery);
                return null;
            }

            JournalEntry before;
            journal.Entries.TryGetValue(delivery.DeliveryId, out before);
            entry.State = Running;
            journal.Entries[delivery.DeliveryId] = entry;
            Unarchive(delivery.DeliveryId);
            return new Work { Delivery = delivery, Entry = entry, Before = before, Player = player };
        }

        private void RunCommands(Work work)
        {
            var delivery = work.Delivery;
            var entry = work.Entry;
            var letters = entry.Progress.ToCharArray();
            string failure = null;
            var ran = 0;
            for (var i = 0; i < letters.Length; i++)
            {
                if (letters[i] != Pending) continue;
                var command = delivery.Commands[i];
                var world = IsWorldCommand(command);
                if (!world)
                {
                    // Outside the save nothing rolls back: the journal says it is running before it runs.
                    entry.Running = i;
                    entry.Progress = new string(letters);
                    if (!SaveJournal())
                    {
                        entry.Running = null;
                        failure = "Журнал плагина не записывается на диск";
                        letters[i] = FailedHere;
                        break;
                    }
                }
                try
                {
                    failure = Execute(command, delivery, work.Player);
                }
                catch (Exception e)
                {
                    failure = e.Message;
                }
                if (failure != null)
                {
                    letters[i] = FailedHere;
                    entry.Running = null;
                    break;
                }
                ran++;
                letters[i] = world ? Given : Saved;
                if (world && IsOxideCommand(command))
                {
                    if (entry.InOxide == null) entry.InOxide = new List<int>();
                    if (!entry.InOxide.Contains(i)) entry.InOxide.Add(i);
                }
                if (!world)
                {
                    entry.Running = null;
                    entry.Progress = new string(letters);
                    SaveJournal();
                }
            }
            entry.Running = null;
            entry.Progress = new string(letters);
            entry.Message = failure == null ? null : Truncate(failure);
            entry.State = Open;
            entry.RecordedAt = UnixSeconds();
            toldNoRoom.Remove(delivery.DeliveryId);
            Puts("Delivery {0} ({1}) for {2}: {3}", delivery.DeliveryId, delivery.Kind, delivery.SteamId,
                failure == null ? "given, counted once the world is saved" : "failed: " + entry.Message);
            if (failure == null && ran > 0) Tell(delivery);
        }

        /// <summary>Whether a command changes Oxide's groups or permissions, which Oxide writes at every save's hook and at shutdown.</summary>
        private static bool IsOxideCommand(string command)
        {
            var words = Words(command ?? "");
            return words.Length > 0 && (words[0] == "oxide.usergroup" || words[0] == "oxide.grant" || words[0] == "oxide.revoke");
        }

        /// <summary>Whether a command changes what the world's save keeps (items, Oxide's groups and permissions).</summary>
        private static bool IsWorldCommand(string command)
        {
            var words = Words(command ?? "");
            return words.Length > 0 && (words[0] == "inventory.giveto" || words[0] == "oxide.usergroup"
                || words[0] == "oxide.grant" || words[0] == "oxide.revoke");
        }

        private void Tell(Delivery delivery)
        {
            var player = FindPlayer(delivery.SteamId);
            if (player == null || string.IsNullOrEmpty(delivery.Title)) return;
            string text;
            if (delivery.Kind == "revoke") text = string.Format(Message("Ended", player.UserIDString), delivery.Title);
            else if (delivery.DurationDays.HasValue && delivery.DurationDays.Value > 0)
                text = string.Format(Message("DeliveredDays", player.UserIDString), delivery.Title, delivery.DurationDays.Value);
            else text = string.Format(Message("Delivered", player.UserIDString), delivery.Title);
            player.ChatMessage(text);
        }

        private static string TitleOf(Delivery delivery)
        {
            return string.IsNullOrEmpty(delivery.Title) ? delivery.DeliveryId : delivery.Title;
        }

        private static string Truncate(string text)
        {
            text = (text ?? "").Trim();
            return text.Length > MessageLimit ? text.Substring(0, MessageLimit) : text;
        }

        #endregion

        #region Commands

        private static readonly Regex SteamIdPattern = new Regex(@"(?<![0-9])[0-9]{17}(?![0-9])");
        private static readonly Regex Whitespace = new Regex(@"\s+");

        private static string[] Words(string command)
        {
            var words = Whitespace.Split(command.Trim());
            if (words.Length > 0 && words[0].StartsWith("o.", StringComparison.OrdinalIgnoreCase))
                words[0] = "oxide." + words[0].Substring(2);
            if (words.Length > 0) words[0] = words[0].ToLowerInvariant();
            return words;
        }

        /// <summary>Why the delivery may not run at all: a command outside the allowed list, or someone else's SteamID.</summary>
        private string Refusal(Delivery delivery)
        {
            foreach (var command in delivery.Commands ?? new List<string>())
            {
                var normalized = string.Join(" ", Words(command));
                var allowed = false;
                foreach (var prefix in config.AllowedCommands)
                {
                    var p = string.Join(" ", Words(prefix));
                    if (normalized == p || normalized.StartsWith(p + " ", StringComparison.Ordinal)) allowed = true;
                }
                if (!allowed) return "Команда не разрешена в настройках плагина: " + command;
                if (!ActsOnlyOn(command, delivery.SteamId)) return "В команде чужой SteamID: " + command;
            }
            return null;
        }

        /// <summary>
        /// Whether a command can act on no player but the delivery's own. The commands the plugin runs itself name
        /// their player in one argument (inventory.giveto's first, oxide.usergroup's and oxide.grant/revoke user's
        /// second): that argument must be the delivery's SteamID. A chat message (say) acts on nobody, and its text
        /// is where a player's own words can be (the site lets {nickname} fill only a say): it is never read for
        /// SteamIDs, so a name of seventeen digits delivers like any other. Any other verb the owner allowed is read
        /// whole: every 17-digit number in it must be the delivery's SteamID.
        /// </summary>
        private static bool ActsOnlyOn(string command, string steamId)
        {
            var words = Words(command);
            var target = -1;
            switch (words[0])
            {
                case "say":
                    return true;
                case "inventory.giveto":
                    target = 1;
                    break;
                case "oxide.usergroup":
                    if (words.Length > 1 && (words[1] == "add" || words[1] == "remove")) target = 2;
                    break;
                case "oxide.grant":
                case "oxide.revoke":
                    if (words.Length > 1 && words[1] == "user") target = 2;
                    break;
            }
            if (target > 0 && words.Length > target) return words[target] == steamId;
            foreach (Match id in SteamIdPattern.Matches(command))
            {
                if (id.Value != steamId) return false;
            }
            return true;
        }

        /// <summary>A chat command's text: everything after the verb, as written (say's text in Rust is the rest of the line).</summary>
        private static string ChatText(string command)
        {
            var trimmed = command.Trim();
            var verb = Whitespace.Match(trimmed);
            return verb.Success ? trimmed.Substring(verb.Index).Trim() : "";
        }

        private static int SlotsNeeded(Delivery delivery, char[] letters)
        {
            var slots = 0;
            var commands = delivery.Commands ?? new List<string>();
            for (var i = 0; i < commands.Count; i++)
            {
                if (i < letters.Length && letters[i] != Pending) continue;
                var words = Words(commands[i]);
                if (words[0] != "inventory.giveto" || words.Length < 3) continue;
                var definition = ItemManager.FindItemDefinition(words[2]);
                int amount;
                if (definition == null || !int.TryParse(words.Length > 3 ? words[3] : "1", out amount) || amount <= 0) continue;
                var stack = Math.Max(1, definition.stackable);
                slots += (amount + stack - 1) / stack;
            }
            return slots;
        }

        private static int FreeSlots(BasePlayer player)
        {
            var main = player.inventory.containerMain;
            var belt = player.inventory.containerBelt;
            return Math.Max(0, main.capacity - main.itemList.Count) + Math.Max(0, belt.capacity - belt.itemList.Count);
        }

        /// <summary>Runs one allowed command through the game's API and checks its effect; the failure's text, or null.</summary>
        private string Execute(string command, Delivery delivery, BasePlayer player)
        {
            var words = Words(command);
            switch (words[0])
            {
                case "inventory.giveto":
                    return GiveItem(words, player, command);
                case "oxide.usergroup":
                {
                    if (words.Length != 4) return "Неверная команда: " + command;
                    var group = words[3];
                    if (!permission.GroupExists(group)) return "Группа «" + group + "» не существует в Oxide (oxide.group add " + group + ")";
                    var adding = words[1] == "add";
                    if (adding) permission.AddUserGroup(words[2], group);
                    else permission.RemoveUserGroup(words[2], group);
                    if (permission.UserHasGroup(words[2], group) == adding) return null;
                    return "После «" + command.Trim() + "» игрок " + (adding ? "не в группе " : "всё ещё в группе ") + group;
                }
                case "oxide.grant":
                case "oxide.revoke":
                {
                    if (words.Length != 4 || words[1] != "user") return "Неверная команда: " + command;
                    var granting = words[0] == "oxide.grant";
                    if (granting && !permission.PermissionExists(words[3]))
                        return "Право «" + words[3] + "» не зарегистрировано: установлен ли плагин, которому оно принадлежит?";
                    if (granting) permission.GrantUserPermission(words[2], words[3], null);
                    else permission.RevokeUserPermission(words[2], words[3]);
                    if (OwnPermissionsMatch(words[2], words[3], granting))
                    {
                        if (!granting && permission.UserHasPermission(words[2], words[3]))
                            Puts("{0} still has {1} through the Oxide group(s) {2}: the server's own setting, not this purchase.",
                                words[2], words[3], HoldingGroups(words[2], words[3]));
                        return null;
                    }
                    return "После «" + command.Trim() + "» право " + (granting ? "не выдано" : "осталось");
                }
                case "say":
                    // What Rust's say does (Chat.Broadcast(arg.FullString, "SERVER", "#eee", 0)), without the console:
                    // the text, a player's name in it included, is shown as it is and never parsed as a command.
                    ConVar.Chat.Broadcast(ChatText(command), "SERVER", "#eee", 0UL);
                    return null;
                default:
                    // Allowed by the owner's config (say, or a verb they added): success unless it throws.
                    ConsoleSystem.Run(ConsoleSystem.Option.Server.Quiet(), command);
                    return null;
            }
        }

        /// <summary>
        /// Whether the player's own permissions (Oxide's UserData.Perms, the set oxide.grant/revoke user change) are
        /// as the command leaves them. Granted: the permission is now the player's own, so it stays theirs whatever
        /// happens to a group; for `prefix.*` or `*`, each permission Oxide expands it to (those registered now).
        /// Revoked: no longer the player's own (for `prefix.*` none with the prefix, for `*` none at all). A group the
        /// player is in may hold the same permission (Oxide's UserHasPermission counts groups and their parents):
        /// that is the server's own setting, which this delivery neither gave nor may take, so it is no failure.
        /// </summary>
        private bool OwnPermissionsMatch(string steamId, string perm, bool granting)
        {
            var own = new HashSet<string>(permission.GetUserData(steamId).Perms, StringComparer.OrdinalIgnoreCase);
            if (!perm.EndsWith("*", StringComparison.Ordinal)) return own.Contains(perm) == granting;
            var prefix = perm.TrimEnd('*');
            if (!granting)
            {
                foreach (var name in own)
                {
                    if (perm == "*" || name.StartsWith(prefix, StringComparison.OrdinalIgnoreCase)) return false;
                }
                return true;
            }
            foreach (var name in permission.GetPermissions())
            {
                if ((perm == "*" || name.StartsWith(prefix, StringComparison.OrdinalIgnoreCase)) && !own.Contains(name)) return false;
            }
            return true;
        }

        private string HoldingGroups(string steamId, string perm)
        {
            var groups = new List<string>();
            foreach (var group in permission.GetUserGroups(steamId))
            {
                if (permission.GroupHasPermission(group, perm)) groups.Add(group);
            }
            return string.Join(", ", groups.ToArray());
        }

        private static string GiveItem(string[] words, BasePlayer player, string command)
        {
            int amount;
            if (words.Length < 3 || !int.TryParse(words.Length > 3 ? words[3] : "1", out amount) || amount <= 0)
                return "Неверная команда: " + command;
            var definition = ItemManager.FindItemDefinition(words[2]);
            if (definition == null) return "Нет такого предмета в Rust: " + words[2];
            if (!CanReceive(player)) return "Игрок не может получить предметы сейчас (не на сервере)";
            var item = ItemManager.Create(definition, amount);
            if (item == null) return "Предмет не создан: " + words[2];
            // What doesn't fit is dropped at the player's feet, as Rust does: the whole amount reaches the
            // world once, and a retry never gives again what was moved into a stack.
            if (!player.inventory.GiveItem(item)) item.Drop(player.GetDropPosition(), player.GetDropVelocity());
            return null;
        }

        #endregion

        #region Acknowledgements

        private void FlushAcks(Action done)
        {
            var batch = new List<AckResult>();
            var bytes = 16;
            foreach (var pair in journal.Entries)
            {
                var result = ResultFor(pair.Key, pair.Value);
                if (result == null) continue;
                var size = Encoding.UTF8.GetByteCount(JsonConvert.SerializeObject(result)) + 1;
                if (batch.Count > 0 && (batch.Count == AckBatchMaxCount || bytes + size > AckBatchMaxBytes)) break;
                batch.Add(result);
                bytes += size;
            }
            if (batch.Count == 0)
            {
                done();
                return;
            }
            SendAcks(batch, () =>
            {
                SaveJournal();
                done();
            });
        }

        /// <summary>What to tell the site about an entry, or null when it has heard it already (or must not hear it).</summary>
        private static AckResult ResultFor(string id, JournalEntry entry)
        {
            if (entry.SetAside || entry.State == Running) return null;
            var snapshot = Snapshot(entry);
            if (entry.Reported == snapshot || entry.Reported == "legacy") return null;
            if (entry.Legacy != null)
            {
                // An older plugin's result, in the words it used (the site reads both).
                return new AckResult
                {
                    DeliveryId = id,
                    Ok = entry.Legacy == "ok",
                    Message = entry.Legacy == "ok" ? null : Truncate(entry.Legacy == "interrupted" ? InterruptedMessage : entry.Message),
                    Interrupted = entry.Legacy == "interrupted" ? (bool?)true : null,
                    Snapshot = snapshot,
                };
            }
            // An older journal's entry says nothing of how many commands there are: it is reported in this
            // version's terms only once the site has served it (leases start at 1).
            if (entry.Progress == null || entry.Lease == 0) return null;
            var failed = entry.Progress.IndexOf(FailedHere) >= 0;
            return new AckResult
            {
                DeliveryId = id,
                Ok = entry.Progress.Trim(Saved).Length == 0,
                Message = failed ? Truncate(entry.Message) : null,
                Progress = entry.Progress,
                Lease = entry.Lease,
                Snapshot = snapshot,
            };
        }

        private const string InterruptedMessage = "Доставка прервана, проверьте вручную";

        private bool NothingToReport()
        {
            foreach (var pair in journal.Entries)
            {
                if (ResultFor(pair.Key, pair.Value) != null) return false;
            }
            return true;
        }

        /// <summary>
        /// The site's acknowledgement counter is behind ours: it was restored from a backup and has
        /// forgotten what it accepted since. Everything it acknowledged after `from` is sent again (the
        /// site takes a repeat as a repeat); its deliveries wait meanwhile (decision 124).
        /// </summary>
        private void StartResync(long from)
        {
            journal.Resync = from;
            journal.SiteSeq = from;
            var moved = new List<string>();
            foreach (var pair in archive.Entries)
            {
                if (pair.Value.ReportedSeq > from) moved.Add(pair.Key);
            }
            foreach (var id in moved)
            {
                if (!journal.Entries.ContainsKey(id)) journal.Entries[id] = archive.Entries[id];
                Unarchive(id);
            }
            var again = 0;
            foreach (var entry in journal.Entries.Values)
            {
                if (entry.ReportedSeq <= from) continue;
                entry.Reported = null;
                if (entry.All && entry.Progress == null) entry.Legacy = "ok";
                again++;
            }
            SaveJournal();
            PrintWarning("The site was restored from a backup (its acknowledgement counter is back at {0}): sending again {1} result(s) it acknowledged since.", from, again);
        }

        private void SendAcks(List<AckResult> batch, Action done)
        {
            Post("/api/game/ack", new Dictionary<string, object> { ["results"] = batch }, (code, response, requestSignature) =>
            {
                try
                {
                    if (code == 400 && batch.Count == 1 && RefusalIsSigned(response, requestSignature, batch[0].DeliveryId))
                    {
                        // The site itself says this result is malformed: set it aside for the operator.
                        JournalEntry entry;
                        if (journal.Entries.TryGetValue(batch[0].DeliveryId, out entry)) entry.SetAside = true;
                        PrintError("The site refused the result of delivery {0} ({1}); set aside, check it in the site's console.",
                            batch[0].DeliveryId, Short(response));
                    }
                    else if ((code == 400 || code == 413) && batch.Count > 1)
                    {
                        // One bad entry must not block the others: halve until it stands alone. Splitting
                        // changes nothing, so an unsigned answer may cause it.
                        var half = batch.Count / 2;
                        SendAcks(batch.GetRange(0, half), () => SendAcks(batch.GetRange(half, batch.Count - half), done));
                        return;
                    }
                    else if (code == 400 || code == 413)
                    {
                        // Not signed by the site (a proxy, a firewall, anyone on the path): nothing changes, sent again later.
                        PrintWarning("Ack answered {0} without the site's signature; the result of {1} will be sent again: {2}",
                            code, batch[0].DeliveryId, Short(response));
                    }
                    else if (code == 200 || code == 403 || code == 404)
                    {
                        HandleAckAnswer(code, response, requestSignature, batch);
                    }
                    else
                    {
                        PrintWarning("Ack answered {0}; will retry: {1}", code, Short(response));
                    }
                }
                catch (Exception e)
                {
                    PrintError("Ack answer could not be handled: {0}", e.Message);
                }
                done();
            });
        }

        private class InvalidAnswer
        {
            [JsonProperty("delivery_ids")] public List<string> DeliveryIds;
            [JsonProperty("response_signature")] public string ResponseSignature;
        }

        /// <summary>Whether a 400 is the site's own (signed over this request) and names this delivery.</summary>
        private bool RefusalIsSigned(string response, string requestSignature, string id)
        {
            try
            {
                var answer = JsonConvert.DeserializeObject<InvalidAnswer>(response);
                if (answer == null || answer.DeliveryIds == null || !answer.DeliveryIds.Contains(id)) return false;
                return AnswerVerifies(requestSignature, "invalid", answer.DeliveryIds, answer.ResponseSignature);
            }
            catch (Exception)
            {
                return false;
            }
        }

        private void HandleAckAnswer(int code, string response, string requestSignature, List<AckResult> batch)
        {
            var answer = JsonConvert.DeserializeObject<AckResponse>(response);
            if (answer == null) throw new Exception("empty answer");
            var sent = new Dictionary<string, AckResult>();
            foreach (var result in batch) sent[result.DeliveryId] = result;
            if (code == 200)
            {
                var lines = new List<string> { answer.AckSeq.ToString(CultureInfo.InvariantCulture) };
                foreach (var status in answer.Results ?? new List<AckStatus>())
                {
                    lines.Add(status.DeliveryId);
                    lines.Add(status.Status);
                }
                if (!AnswerVerifies(requestSignature, "ack3", lines, answer.ResponseSignatureV3))
                {
                    PrintError("Ack answer has a wrong signature; the results will be sent again.");
                    return;
                }
                if (answer.AckSeq > journal.SiteSeq) journal.SiteSeq = answer.AckSeq;
                foreach (var status in answer.Results ?? new List<AckStatus>())
                {
                    JournalEntry entry;
                    AckResult result;
                    if (!journal.Entries.TryGetValue(status.DeliveryId, out entry) || !sent.TryGetValue(status.DeliveryId, out result)) continue;
                    Accepted(entry, result);
                    entry.ReportedSeq = answer.AckSeq;
                }
                return;
            }
            var ids = answer.DeliveryIds ?? new List<string>();
            if (!AnswerVerifies(requestSignature, "refused", ids, answer.ResponseSignature))
            {
                PrintError("Ack refusal has a wrong signature; the results will be sent again.");
                return;
            }
            foreach (var id in ids)
            {
                JournalEntry entry;
                AckResult result;
                if (!journal.Entries.TryGetValue(id, out entry) || !sent.TryGetValue(id, out result)) continue;
                Accepted(entry, result);
                if (code == 403 && (entry.All || (entry.Progress ?? "").IndexOfAny(new[] { Given, Saved }) >= 0))
                {
                    PrintError("Delivery {0} ran here, but the site has handed it to another server: it may be delivered twice. Check it in the site's console (deliveries).", id);
                }
            }
            if (code == 404) PrintWarning("The site doesn't know deliveries {0}; their results are dropped.", string.Join(", ", ids.ToArray()));
        }

        /// <summary>The site has heard this result: it is sent again only when the entry changes.</summary>
        private static void Accepted(JournalEntry entry, AckResult result)
        {
            entry.Reported = result.Snapshot;
            if (entry.Legacy != null && entry.Reported == Snapshot(entry))
            {
                entry.Legacy = null;
                entry.Reported = entry.All ? "legacy" : Snapshot(entry);
            }
        }

        private static string Cut(string text, int max)
        {
            return text.Length > max ? text.Substring(0, max) : text;
        }

        private static string Short(string text)
        {
            if (text == null) return "(no answer)";
            return text.Length > 200 ? text.Substring(0, 200) + "…" : text;
        }

        #endregion

        #region /store

        [ChatCommand("store")]
        private void StoreCommand(BasePlayer player, string command, string[] args)
        {
            if (!configured || player == null) return;
            float last;
            var now = Interface.Oxide.Now;
            if (lastStore.TryGetValue(player.UserIDString, out last) && now - last < StoreCooldownSeconds)
            {
                SendReply(player, Message("TooOften", player.UserIDString));
                return;
            }
            lastStore[player.UserIDString] = now;
            Post("/api/game/pending", new Dictionary<string, object> { ["steam_id"] = player.UserIDString }, (code, response, requestSignature) =>
            {
                var pending = code == 200 ? JsonConvert.DeserializeObject<PendingResponse>(response) : null;
                if (pending == null || pending.Items == null || !AnswerVerifies(requestSignature, "pending", PendingLines(pending.Items), pending.ResponseSignature))
                {
                    if (code == 200) PrintError("/store answer has a wrong signature; not shown.");
                    SendReply(player, Message("Unavailable", player.UserIDString));
                    return;
                }
                if (pending.Items.Count == 0)
                {
                    SendReply(player, Message("Nothing", player.UserIDString));
                    return;
                }
                var names = new List<string>();
                foreach (var item in pending.Items)
                {
                    var name = item.DurationDays.HasValue
                        ? string.Format(Message("Days", player.UserIDString), item.Name, item.DurationDays.Value)
                        : item.Name;
                    names.Add(item.Failed ? string.Format(Message("Failed", player.UserIDString), name) : name);
                }
                SendReply(player, string.Format(Message("Waiting", player.UserIDString), string.Join(", ", names.ToArray())));
            });
        }

        private static List<string> PendingLines(List<PendingItem> items)
        {
            var lines = new List<string>();
            foreach (var item in items)
            {
                lines.Add(item.Name ?? "");
                lines.Add(item.DurationDays.HasValue ? item.DurationDays.Value.ToString(CultureInfo.InvariantCulture) : "");
                lines.Add(item.Failed ? "1" : "0");
            }
            return lines;
        }

        private string Message(string key, string userId)
        {
            return lang.GetMessage(key, this, userId);
        }

        #endregion
    }
}
