// Rust Store Delivery: delivers purchases from the site to this Rust server.
// Oxide/uMod plugin (also runs on Carbon). Install guide: plugins/oxide/README.md.
//
// Protocol (worker/api/game.ts):
//   every request: POST JSON, headers X-Server-Id, X-Timestamp (unix seconds),
//   X-Signature = hex HMAC-SHA256(SHA-256(server key), "{timestamp}\n{METHOD}\n{path}\n{body}")
//   POST /api/game/heartbeat  server state, map, last wipe and online SteamIDs
//   POST /api/game/queue      deliveries due here, with rendered console commands (signed answer)
//   POST /api/game/ack        results; idempotent (signed answer)
//   POST /api/game/pending    what is waiting for one player (/store; signed answer)
// An answer whose signature doesn't verify is ignored: nothing runs, nothing is marked.
//
// Exactly once (docs/decisions/109-plugin-journal-and-game-api.md): before a delivery's first
// command runs, the journal on disk says "started"; after the last, "ok" or "failed" with the
// commands that succeeded. A journal that still says "started" when it loads means the server died
// mid-delivery: that delivery is reported "interrupted" and never run again automatically. A
// failure the site retries runs only the commands that have not succeeded yet.
//
// Commands run through the game's own API, never judged by words in a console reply: items are
// created and given (and checked), groups and permissions changed through Oxide's permission
// library (and checked). Only allowed command verbs run; a SteamID in a command must be the
// delivery's own.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using Newtonsoft.Json;
using Oxide.Core;
using Oxide.Core.Libraries;

namespace Oxide.Plugins
{
    [Info("Rust Store Delivery", "Svoboda", "2.0.0")]
    [Description("Delivers shop purchases from the site: signed polling, a crash-safe journal and /store")]
    public class RustStoreDelivery : RustPlugin
    {
        private const float MinIntervalSeconds = 10f;
        /// <summary>What the site keeps of a failure's text (worker/services/game/deliveries.ts).</summary>
        private const int MessageLimit = 300;
        private const int AckBatchMaxCount = 100;
        /// <summary>Well under the site's 64 KiB request limit.</summary>
        private const int AckBatchMaxBytes = 32 * 1024;
        private const long OkKeepSeconds = 3600;
        private const long FailedKeepSeconds = 7 * 86400;
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

            [JsonProperty("Poll interval, seconds (at least 10)")]
            public float PollIntervalSeconds = 15f;

            [JsonProperty("Heartbeat interval, seconds (at least 10)")]
            public float HeartbeatIntervalSeconds = 30f;

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
            [JsonProperty("response_signature_v2")] public string ResponseSignature;
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
        }

        private class AckResult
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("ok")] public bool Ok;
            [JsonProperty("message", NullValueHandling = NullValueHandling.Ignore)] public string Message;
            [JsonProperty("interrupted", NullValueHandling = NullValueHandling.Ignore)] public bool? Interrupted;
        }

        private class AckStatus
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("status")] public string Status;
        }

        private class AckResponse
        {
            [JsonProperty("results")] public List<AckStatus> Results;
            [JsonProperty("delivery_ids")] public List<string> DeliveryIds;
            [JsonProperty("response_signature")] public string ResponseSignature;
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

        #endregion

        #region Journal

        private const string Started = "started";
        private const string Succeeded = "ok";
        private const string Failed = "failed";
        private const string Interrupted = "interrupted";

        private class JournalEntry
        {
            public string State;
            public string Message = "";
            public bool Acked;
            /// <summary>The site refused this entry's ack as malformed: kept for the operator, never sent again.</summary>
            public bool SetAside;
            public long RecordedAt;
            /// <summary>"index:command" of each command that succeeded, so a retry runs only the rest.</summary>
            public List<string> Done = new List<string>();
            /// <summary>Journals written by plugin 1.x: true meant "ran" (or "about to run").</summary>
            public bool? Ok;
        }

        private class Journal
        {
            public long Seq;
            public Dictionary<string, JournalEntry> Entries = new Dictionary<string, JournalEntry>();
        }

        private Journal journal = new Journal();

        // Two files written in turn, each complete before the next is touched: Oxide's data files are
        // truncated and rewritten in place with no flush (and plugins may not use System.IO), so a
        // crash mid-write can leave one of them empty or cut, never both.
        private string JournalFile { get { return Name + "_journal"; } }
        private string JournalCopyFile { get { return Name + "_journal_copy"; } }

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

        /// <summary>The newest complete journal, a new one when there is none, or null (delivery stops) when only broken ones exist.</summary>
        private Journal LoadJournal()
        {
            var mainExists = Interface.Oxide.DataFileSystem.ExistsDatafile(JournalFile);
            var copyExists = Interface.Oxide.DataFileSystem.ExistsDatafile(JournalCopyFile);
            if (!mainExists && !copyExists) return new Journal();
            string mainProblem, copyProblem;
            var main = ReadJournalFile(JournalFile, out mainProblem);
            var copy = ReadJournalFile(JournalCopyFile, out copyProblem);
            var newest = main == null ? copy : copy == null ? main : (copy.Seq > main.Seq ? copy : main);
            if (newest == null)
            {
                // Never read a broken journal as "nothing ran": that would run deliveries twice.
                PrintError("Delivery stopped: the journal can't be read ({0}). Restore oxide/data/{1}.json from a backup, " +
                    "or delete both journal files if you accept that deliveries run here but not yet acknowledged may run again; then reload the plugin.",
                    string.Join("; ", new[] { mainProblem, copyProblem }), JournalFile);
                return null;
            }
            foreach (var entry in newest.Entries.Values)
            {
                if (entry.State == null) entry.State = entry.Ok == false ? Failed : Succeeded;
                if (entry.Done == null) entry.Done = new List<string>();
                entry.Ok = null;
                if (entry.State == Started)
                {
                    // The server died between "started" and the result: some commands may have run.
                    entry.State = Interrupted;
                    entry.Message = InterruptedMessage;
                    entry.Acked = false;
                    PrintError("Delivery interrupted by a crash or restart; it will not run again, check it by hand. Reported to the site.");
                }
            }
            return newest;
        }

        private const string InterruptedMessage = "Доставка прервана, проверьте вручную";

        /// <summary>Writes both journal files; false (and logged) when the disk refuses.</summary>
        private bool SaveJournal()
        {
            try
            {
                journal.Seq++;
                Interface.Oxide.DataFileSystem.WriteObject(JournalCopyFile, journal, true);
                Interface.Oxide.DataFileSystem.WriteObject(JournalFile, journal, true);
                return true;
            }
            catch (Exception e)
            {
                PrintError("The journal can't be saved ({0}); nothing more runs until it can.", e.Message);
                return false;
            }
        }

        private void PruneJournal()
        {
            var now = UnixSeconds();
            var old = new List<string>();
            foreach (var pair in journal.Entries)
            {
                var entry = pair.Value;
                if (!entry.Acked && !entry.SetAside) continue;
                var keep = entry.State == Succeeded && !entry.SetAside ? OkKeepSeconds : FailedKeepSeconds;
                if (entry.RecordedAt < now - keep) old.Add(pair.Key);
            }
            foreach (var id in old) journal.Entries.Remove(id);
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
            if (config.PollIntervalSeconds < MinIntervalSeconds || config.HeartbeatIntervalSeconds < MinIntervalSeconds)
            {
                PrintWarning("Intervals below {0} s are raised to {0} s.", MinIntervalSeconds);
                config.PollIntervalSeconds = Math.Max(MinIntervalSeconds, config.PollIntervalSeconds);
                config.HeartbeatIntervalSeconds = Math.Max(MinIntervalSeconds, config.HeartbeatIntervalSeconds);
            }
            using (var sha = SHA256.Create())
            {
                signingKey = sha.ComputeHash(Encoding.UTF8.GetBytes(config.ServerKey));
            }
            return true;
        }

        private void OnServerInitialized()
        {
            if (!configured) return;
            journal = LoadJournal();
            if (journal == null) return;
            // Oxide destroys a repeating timer whose callback throws: both callbacks are guarded.
            heartbeatTimer = timer.Every(config.HeartbeatIntervalSeconds, () => Guarded("heartbeat", SendHeartbeat));
            pollTimer = timer.Every(config.PollIntervalSeconds, () => Guarded("poll", Tick));
            Puts("Started: site {0}, server #{1}, polling every {2} s; {3} journal entries.",
                config.SiteUrl, config.ServerId, config.PollIntervalSeconds, journal.Entries.Count);
            Guarded("heartbeat", SendHeartbeat);
            Guarded("poll", Tick);
        }

        private void Unload()
        {
            if (pollTimer != null) pollTimer.Destroy();
            if (heartbeatTimer != null) heartbeatTimer.Destroy();
            if (journal != null) SaveJournal();
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
            var url = config.SiteUrl.TrimEnd('/') + path;
            var timestamp = UnixSeconds().ToString(CultureInfo.InvariantCulture);
            var signature = Hmac(timestamp + "\n" + "POST" + "\n" + new Uri(url).AbsolutePath + "\n" + body);
            var headers = new Dictionary<string, string>
            {
                ["Content-Type"] = "application/json",
                ["X-Server-Id"] = config.ServerId.ToString(CultureInfo.InvariantCulture),
                ["X-Timestamp"] = timestamp,
                ["X-Signature"] = signature,
            };
            webrequest.Enqueue(url, body, (code, response) => callback(code, response, signature), this,
                RequestMethod.POST, headers, config.RequestTimeoutSeconds);
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
            var online = SteamIds(false);
            var fields = new Dictionary<string, object>
            {
                ["hostname"] = ConVar.Server.hostname ?? "",
                ["players"] = online.Count,
                ["max_players"] = ConVar.Server.maxplayers,
                ["queue"] = ServerMgr.Instance != null ? ServerMgr.Instance.connectionQueue.Queued : 0,
                ["map"] = ConVar.Server.level,
                ["map_size"] = ConVar.Server.worldsize,
                ["map_seed"] = ConVar.Server.seed,
                ["wiped_at"] = new DateTimeOffset(DateTime.SpecifyKind(SaveRestore.SaveCreatedTime, DateTimeKind.Utc)).ToUnixTimeSeconds(),
                ["online"] = online,
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
                var hint = code == 401 ? " Check \"Server id\", \"Server key\" and this machine's clock." : "";
                PrintWarning("Heartbeat answered {0}: {1}{2}", code, Short(response), hint);
            });
        }

        #endregion

        #region Delivery

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
                if (round == mine) busy = false;
            })));
        }

        private void Poll(Action done)
        {
            Post("/api/game/queue", new Dictionary<string, object> { ["online"] = SteamIds(true) }, (code, response, requestSignature) =>
            {
                try
                {
                    if (code != 200)
                    {
                        PrintWarning("Queue answered {0}: {1}", code, Short(response));
                        return;
                    }
                    var queue = JsonConvert.DeserializeObject<QueueResponse>(response);
                    if (queue == null || queue.Deliveries == null) return;
                    if (!FixedTimeEquals(Hmac(requestSignature + "\n" + Canonical(queue.Deliveries)), queue.ResponseSignature))
                    {
                        PrintError("Queue answer has a wrong signature; nothing was run. Check \"Site URL\" and any proxy in between.");
                        return;
                    }
                    foreach (var delivery in queue.Deliveries)
                    {
                        try
                        {
                            Run(delivery);
                        }
                        catch (Exception e)
                        {
                            PrintError("Delivery {0} could not be handled: {1}", delivery.DeliveryId, e.Message);
                        }
                    }
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
            var lines = new List<string> { "v2" };
            foreach (var d in deliveries)
            {
                lines.Add(d.DeliveryId);
                lines.Add(d.Kind);
                lines.Add(d.SteamId);
                lines.Add(d.RequiresOnline ? "1" : "0");
                lines.Add(d.Title ?? "");
                lines.Add(d.DurationDays.HasValue ? d.DurationDays.Value.ToString(CultureInfo.InvariantCulture) : "");
                var commands = d.Commands ?? new List<string>();
                lines.Add(commands.Count.ToString(CultureInfo.InvariantCulture));
                lines.AddRange(commands);
            }
            return string.Join("\n", lines.ToArray());
        }

        private void Run(Delivery delivery)
        {
            if (string.IsNullOrEmpty(delivery.DeliveryId)) return;
            var commands = delivery.Commands ?? new List<string>();
            JournalEntry known;
            var retry = false;
            if (journal.Entries.TryGetValue(delivery.DeliveryId, out known))
            {
                if (known.SetAside) return;
                if (known.State != Failed || !known.Acked)
                {
                    // Ran before (a crash, a lost ack, or interrupted): acknowledge again, never run again.
                    if (known.Acked)
                    {
                        known.Acked = false;
                        SaveJournal();
                    }
                    return;
                }
                retry = true; // the site retries a failure it accepted: run what has not succeeded
            }

            var player = FindPlayer(delivery.SteamId);
            // The player left or can't receive now (dead, asleep, wounded, connecting): the site serves it again after the lease.
            if (delivery.RequiresOnline && !CanReceive(player)) return;

            var refusal = Refusal(delivery);
            if (refusal != null)
            {
                PrintError("Delivery {0} refused without running: {1}", delivery.DeliveryId, refusal);
                var refused = new JournalEntry { State = Failed, Message = Truncate(refusal), RecordedAt = UnixSeconds() };
                journal.Entries[delivery.DeliveryId] = refused;
                if (!SaveJournal()) journal.Entries.Remove(delivery.DeliveryId);
                return;
            }

            var slots = SlotsNeeded(delivery, known);
            if (slots > 0 && player != null && FreeSlots(player) < slots)
            {
                // Never give into a full inventory (Rust destroys what doesn't fit): wait, tell the player once.
                if (toldNoRoom.Add(delivery.DeliveryId))
                {
                    SendReply(player, string.Format(Message("NoRoom", player.UserIDString), slots - FreeSlots(player), TitleOf(delivery)));
                }
                return;
            }

            var entry = retry ? known : new JournalEntry();
            var before = retry ? new { entry.State, entry.Message, entry.Acked, entry.RecordedAt } : null;
            entry.State = Started;
            entry.Message = "";
            entry.Acked = false;
            entry.RecordedAt = UnixSeconds();
            journal.Entries[delivery.DeliveryId] = entry;
            if (!SaveJournal())
            {
                // Not on disk: run nothing, and forget it in memory too.
                if (before == null) journal.Entries.Remove(delivery.DeliveryId);
                else
                {
                    entry.State = before.State;
                    entry.Message = before.Message;
                    entry.Acked = before.Acked;
                    entry.RecordedAt = before.RecordedAt;
                }
                return;
            }

            string failure = null;
            for (var i = 0; i < commands.Count; i++)
            {
                var key = i.ToString(CultureInfo.InvariantCulture) + ":" + commands[i];
                if (entry.Done.Contains(key)) continue;
                try
                {
                    failure = Execute(commands[i], delivery, player);
                }
                catch (Exception e)
                {
                    failure = e.Message;
                }
                if (failure != null) break;
                entry.Done.Add(key);
            }
            entry.State = failure == null ? Succeeded : Failed;
            entry.Message = failure == null ? "" : Truncate(failure);
            toldNoRoom.Remove(delivery.DeliveryId);
            SaveJournal();
            Puts("Delivery {0} ({1}) for {2}: {3}", delivery.DeliveryId, delivery.Kind, delivery.SteamId,
                failure == null ? "done" : "failed: " + entry.Message);
            if (failure == null) Tell(delivery);
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

        private static int SlotsNeeded(Delivery delivery, JournalEntry known)
        {
            var slots = 0;
            var commands = delivery.Commands ?? new List<string>();
            for (var i = 0; i < commands.Count; i++)
            {
                if (known != null && known.Done.Contains(i.ToString(CultureInfo.InvariantCulture) + ":" + commands[i])) continue;
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
            if (player.inventory.GiveItem(item)) return null;
            item.Remove();
            return "Не хватило места в инвентаре для " + words[2] + " ×" + amount;
        }

        #endregion

        #region Acknowledgements

        private void FlushAcks(Action done)
        {
            var batch = new List<AckResult>();
            var bytes = 16;
            foreach (var pair in journal.Entries)
            {
                var entry = pair.Value;
                if (entry.Acked || entry.SetAside || entry.State == Started) continue;
                var result = new AckResult
                {
                    DeliveryId = pair.Key,
                    Ok = entry.State == Succeeded,
                    Message = entry.State == Succeeded ? null : Truncate(entry.Message),
                    Interrupted = entry.State == Interrupted ? (bool?)true : null,
                };
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
                PruneJournal();
                SaveJournal();
                done();
            });
        }

        private void SendAcks(List<AckResult> batch, Action done)
        {
            Post("/api/game/ack", new Dictionary<string, object> { ["results"] = batch }, (code, response, requestSignature) =>
            {
                try
                {
                    if ((code == 400 || code == 413) && batch.Count > 1)
                    {
                        // One bad entry must not block the others: halve until it stands alone.
                        var half = batch.Count / 2;
                        SendAcks(batch.GetRange(0, half), () => SendAcks(batch.GetRange(half, batch.Count - half), done));
                        return;
                    }
                    if (code == 400 || code == 413)
                    {
                        var entry = journal.Entries[batch[0].DeliveryId];
                        entry.SetAside = true;
                        PrintError("The site refused the result of delivery {0} ({1}: {2}); set aside, check it in the site's console.",
                            batch[0].DeliveryId, code, Short(response));
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

        private void HandleAckAnswer(int code, string response, string requestSignature, List<AckResult> batch)
        {
            var answer = JsonConvert.DeserializeObject<AckResponse>(response);
            if (answer == null) throw new Exception("empty answer");
            if (code == 200)
            {
                var lines = new List<string>();
                foreach (var status in answer.Results ?? new List<AckStatus>())
                {
                    lines.Add(status.DeliveryId);
                    lines.Add(status.Status);
                }
                if (!AnswerVerifies(requestSignature, "ack", lines, answer.ResponseSignature))
                {
                    PrintError("Ack answer has a wrong signature; the results will be sent again.");
                    return;
                }
                foreach (var status in answer.Results ?? new List<AckStatus>())
                {
                    JournalEntry entry;
                    if (journal.Entries.TryGetValue(status.DeliveryId, out entry)) entry.Acked = true;
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
                if (!journal.Entries.TryGetValue(id, out entry)) continue;
                entry.Acked = true;
                if (code == 403 && entry.State != Failed)
                {
                    PrintError("Delivery {0} ran here, but the site has handed it to another server: it may be delivered twice. Check it in the site's console (deliveries).", id);
                }
            }
            if (code == 404) PrintWarning("The site doesn't know deliveries {0}; their results are dropped.", string.Join(", ", ids.ToArray()));
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
