// Rust Store Delivery: delivers purchases from the site to this Rust server.
// Oxide/uMod plugin (also runs on Carbon). Install guide: plugins/oxide/README.md.
//
// Protocol (worker/api/game.ts):
//   every request: POST JSON, headers X-Server-Id, X-Timestamp (unix seconds),
//   X-Signature = hex HMAC-SHA256(SHA-256(server key), "{timestamp}\n{METHOD}\n{path}\n{body}")
//   POST /api/game/heartbeat  server state and online SteamIDs
//   POST /api/game/queue      deliveries due here, with rendered console commands (signed answer)
//   POST /api/game/ack        results; idempotent
//   POST /api/game/pending    what is waiting for one player (/store)
//
// Exactly once: a delivery id is written to the journal (oxide/data/RustStoreDelivery_journal.json)
// BEFORE its commands run. A journaled id is never run again: after a crash or a lost ack it
// is only acknowledged. Only a failure the site has accepted is retried.
//
// A command failed when it throws, when its console reply reports a failure, or when
// `oxide.usergroup add|remove` left the player outside (inside) the group; the failure's
// text is acknowledged, so the site retries it and at last shows it in the Корзина.
using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using Newtonsoft.Json;
using Oxide.Core;
using Oxide.Core.Libraries;

namespace Oxide.Plugins
{
    [Info("Rust Store Delivery", "Svoboda", "1.0.0")]
    [Description("Delivers shop purchases from the site: signed polling, a crash-safe journal and /store")]
    public class RustStoreDelivery : RustPlugin
    {
        private const float MinIntervalSeconds = 10f;
        private const int JournalKeepDays = 7;

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
        }

        private PluginConfig config;

        protected override void LoadDefaultConfig()
        {
            config = new PluginConfig();
        }

        protected override void LoadConfig()
        {
            base.LoadConfig();
            try
            {
                config = Config.ReadObject<PluginConfig>();
                if (config == null) throw new Exception("empty config");
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
            [JsonProperty("response_signature")] public string ResponseSignature;
        }

        private class Delivery
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("kind")] public string Kind;
            [JsonProperty("steam_id")] public string SteamId;
            [JsonProperty("requires_online")] public bool RequiresOnline;
            [JsonProperty("commands")] public List<string> Commands;
        }

        private class AckResult
        {
            [JsonProperty("delivery_id")] public string DeliveryId;
            [JsonProperty("ok")] public bool Ok;
            [JsonProperty("message")] public string Message;
        }

        private class AckRequest
        {
            [JsonProperty("results")] public List<AckResult> Results;
        }

        private class RefusedIds
        {
            [JsonProperty("delivery_ids")] public List<string> DeliveryIds;
        }

        private class PendingResponse
        {
            [JsonProperty("items")] public List<PendingItem> Items;
        }

        private class PendingItem
        {
            [JsonProperty("name")] public string Name;
            [JsonProperty("duration_days")] public int? DurationDays;
            [JsonProperty("failed")] public bool Failed;
        }

        #endregion

        #region Journal

        private class JournalEntry
        {
            public bool Ok = true;
            public string Message = "";
            public bool Acked;
            public long RecordedAt;
        }

        private class Journal
        {
            public Dictionary<string, JournalEntry> Entries = new Dictionary<string, JournalEntry>();
        }

        private Journal journal = new Journal();
        private string JournalFile { get { return Name + "_journal"; } }

        private void LoadJournal()
        {
            try
            {
                journal = Interface.Oxide.DataFileSystem.ReadObject<Journal>(JournalFile) ?? new Journal();
                if (journal.Entries == null) journal.Entries = new Dictionary<string, JournalEntry>();
            }
            catch (Exception e)
            {
                // Never start with an empty journal over a broken one: that could run commands twice.
                PrintError("Journal {0} can't be read ({1}); delivery stopped until it is fixed or removed.", JournalFile, e.Message);
                journal = null;
            }
        }

        private void SaveJournal()
        {
            // Synchronous: the entry is on disk before the commands run.
            Interface.Oxide.DataFileSystem.WriteObject(JournalFile, journal, true);
        }

        private void PruneJournal()
        {
            var cutoff = UnixSeconds() - JournalKeepDays * 86400L;
            var old = new List<string>();
            foreach (var pair in journal.Entries)
            {
                if (pair.Value.Acked && pair.Value.RecordedAt < cutoff) old.Add(pair.Key);
            }
            foreach (var id in old) journal.Entries.Remove(id);
        }

        #endregion

        #region Lifecycle

        private bool configured;
        private bool busy;
        private long busySince;
        private Timer pollTimer;
        private Timer heartbeatTimer;
        private byte[] signingKey;

        private void Init()
        {
            lang.RegisterMessages(new Dictionary<string, string>
            {
                ["Waiting"] = "Ожидают выдачи: {0}. Предметы выдаются автоматически, пока вы на сервере.",
                ["Failed"] = "{0} (ошибка выдачи, обратитесь в поддержку)",
                ["Days"] = "{0}, {1} дн.",
                ["Nothing"] = "Для вас на этом сервере ничего не ожидает выдачи.",
                ["Unavailable"] = "Магазин сейчас недоступен, попробуйте позже.",
            }, this, "ru");
            lang.RegisterMessages(new Dictionary<string, string>
            {
                ["Waiting"] = "Waiting for delivery: {0}. Items are delivered automatically while you are online.",
                ["Failed"] = "{0} (delivery failed, contact support)",
                ["Days"] = "{0}, {1} d.",
                ["Nothing"] = "Nothing is waiting for you on this server.",
                ["Unavailable"] = "The store is unavailable right now, try again later.",
            }, this, "en");

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
            LoadJournal();
            if (journal == null) return;
            heartbeatTimer = timer.Every(config.HeartbeatIntervalSeconds, SendHeartbeat);
            pollTimer = timer.Every(config.PollIntervalSeconds, Tick);
            SendHeartbeat();
            Tick();
        }

        private void Unload()
        {
            if (pollTimer != null) pollTimer.Destroy();
            if (heartbeatTimer != null) heartbeatTimer.Destroy();
            if (journal != null) SaveJournal();
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

        /// <summary>Signs and sends; the callback gets (status, body, request signature).</summary>
        private void Post(string path, string body, Action<int, string, string> callback)
        {
            var url = config.SiteUrl.TrimEnd('/') + path;
            var timestamp = UnixSeconds().ToString();
            var signature = Hmac(timestamp + "\n" + "POST" + "\n" + new Uri(url).AbsolutePath + "\n" + body);
            var headers = new Dictionary<string, string>
            {
                ["Content-Type"] = "application/json",
                ["X-Server-Id"] = config.ServerId.ToString(),
                ["X-Timestamp"] = timestamp,
                ["X-Signature"] = signature,
            };
            webrequest.Enqueue(url, body, (code, response) => callback(code, response, signature), this,
                RequestMethod.POST, headers, config.RequestTimeoutSeconds);
        }

        #endregion

        #region Heartbeat

        private static List<string> OnlineSteamIds()
        {
            var ids = new List<string>();
            foreach (var player in BasePlayer.activePlayerList)
            {
                if (player != null) ids.Add(player.UserIDString);
            }
            return ids;
        }

        private static bool IsOnline(string steamId)
        {
            foreach (var player in BasePlayer.activePlayerList)
            {
                if (player != null && player.UserIDString == steamId) return true;
            }
            return false;
        }

        private void SendHeartbeat()
        {
            var online = OnlineSteamIds();
            var body = JsonConvert.SerializeObject(new Dictionary<string, object>
            {
                ["hostname"] = ConVar.Server.hostname ?? "",
                ["players"] = online.Count,
                ["max_players"] = ConVar.Server.maxplayers,
                ["queue"] = ServerMgr.Instance != null ? ServerMgr.Instance.connectionQueue.Queued : 0,
                ["map"] = ConVar.Server.level,
                ["online"] = online,
            });
            Post("/api/game/heartbeat", body, (code, response, signature) =>
            {
                if (code != 200) PrintWarning("Heartbeat answered {0}: {1}", code, Short(response));
            });
        }

        #endregion

        #region Delivery

        private void Tick()
        {
            if (journal == null) return;
            // A lost callback must not stop delivery forever.
            if (busy && UnixSeconds() - busySince < 3 * (long)config.RequestTimeoutSeconds + 10) return;
            busy = true;
            busySince = UnixSeconds();
            FlushAcks(() => Poll(() => FlushAcks(() => { busy = false; })));
        }

        private void Poll(Action done)
        {
            var body = JsonConvert.SerializeObject(new Dictionary<string, object> { ["online"] = OnlineSteamIds() });
            Post("/api/game/queue", body, (code, response, requestSignature) =>
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
                    foreach (var delivery in queue.Deliveries) Run(delivery);
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
            var lines = new List<string>();
            foreach (var d in deliveries)
            {
                lines.Add(d.DeliveryId);
                lines.Add(d.Kind);
                lines.Add(d.SteamId);
                lines.Add(d.RequiresOnline ? "1" : "0");
                var commands = d.Commands ?? new List<string>();
                lines.Add(commands.Count.ToString());
                lines.AddRange(commands);
            }
            return string.Join("\n", lines.ToArray());
        }

        private void Run(Delivery delivery)
        {
            if (string.IsNullOrEmpty(delivery.DeliveryId)) return;
            JournalEntry known;
            if (journal.Entries.TryGetValue(delivery.DeliveryId, out known) && (!known.Acked || known.Ok))
            {
                // Ran before (a crash or a lost ack): acknowledge again, never run again.
                known.Acked = false;
                SaveJournal();
                return;
            }
            // The player left since the poll: the site serves it again after the lease.
            if (delivery.RequiresOnline && !IsOnline(delivery.SteamId)) return;

            var entry = new JournalEntry { RecordedAt = UnixSeconds() };
            journal.Entries[delivery.DeliveryId] = entry;
            SaveJournal(); // BEFORE running anything

            foreach (var command in delivery.Commands ?? new List<string>())
            {
                string failure;
                try
                {
                    var reply = ConsoleSystem.Run(ConsoleSystem.Option.Server.Quiet(), command);
                    failure = CommandFailure(command, reply);
                }
                catch (Exception e)
                {
                    failure = e.Message;
                }
                if (failure != null)
                {
                    entry.Ok = false;
                    entry.Message = failure;
                    break;
                }
            }
            SaveJournal();
            Puts("Delivery {0} ({1}) for {2}: {3}", delivery.DeliveryId, delivery.Kind, delivery.SteamId,
                entry.Ok ? "done" : "failed: " + entry.Message);
        }

        // Rust and Oxide rarely throw for a command that did nothing; they say so in the reply
        // ("Group 'vip' doesn't exist", "Invalid item", "Couldn't find player"). The same list
        // is FAILURE_REPLY_MARKERS in tests/support/plugin-simulator.ts.
        private static readonly string[] FailureReplyMarkers =
        {
            "unknown", "not found", "couldn't find", "could not find", "doesn't exist", "does not exist", "invalid", "no such",
        };

        private static readonly Regex UserGroupCommand = new Regex(
            @"^(?:oxide|o)\.usergroup\s+(add|remove)\s+(\S+)\s+(\S+)\s*$", RegexOptions.IgnoreCase);

        /// <summary>Why a command that ran failed, or null: its reply, or the group it should have changed.</summary>
        private string CommandFailure(string command, string reply)
        {
            var failure = ReplyFailure(reply);
            if (failure != null) return failure;
            var match = UserGroupCommand.Match(command.Trim());
            if (!match.Success) return null;
            var adding = match.Groups[1].Value.ToLowerInvariant() == "add";
            var steamId = match.Groups[2].Value;
            var group = match.Groups[3].Value;
            if (permission.UserHasGroup(steamId, group) == adding) return null;
            // Shown to the player in the Корзина after the last attempt.
            return "После «" + command.Trim() + "» игрок " + (adding ? "не в группе " : "всё ещё в группе ") + group;
        }

        private static string ReplyFailure(string reply)
        {
            if (string.IsNullOrEmpty(reply)) return null;
            var text = reply.Trim();
            foreach (var marker in FailureReplyMarkers)
            {
                if (text.IndexOf(marker, StringComparison.OrdinalIgnoreCase) >= 0) return text;
            }
            return null;
        }

        private void FlushAcks(Action done)
        {
            var results = new List<AckResult>();
            foreach (var pair in journal.Entries)
            {
                if (pair.Value.Acked) continue;
                results.Add(new AckResult { DeliveryId = pair.Key, Ok = pair.Value.Ok, Message = pair.Value.Message });
                if (results.Count == 100) break;
            }
            if (results.Count == 0)
            {
                done();
                return;
            }
            var body = JsonConvert.SerializeObject(new AckRequest { Results = results });
            Post("/api/game/ack", body, (code, response, signature) =>
            {
                try
                {
                    if (code == 200)
                    {
                        foreach (var result in results) journal.Entries[result.DeliveryId].Acked = true;
                    }
                    else if (code == 403 || code == 404)
                    {
                        // Ids the site will never take from this server: stop sending them, keep the rest.
                        var refused = JsonConvert.DeserializeObject<RefusedIds>(response);
                        if (refused != null && refused.DeliveryIds != null)
                        {
                            foreach (var id in refused.DeliveryIds)
                            {
                                JournalEntry entry;
                                if (journal.Entries.TryGetValue(id, out entry)) entry.Acked = true;
                            }
                        }
                        PrintWarning("Ack refused ({0}): {1}", code, Short(response));
                    }
                    else
                    {
                        PrintWarning("Ack answered {0}; will retry: {1}", code, Short(response));
                    }
                    PruneJournal();
                    SaveJournal();
                }
                catch (Exception e)
                {
                    PrintError("Ack answer could not be handled: {0}", e.Message);
                }
                finally
                {
                    done();
                }
            });
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
            if (!configured) return;
            var body = JsonConvert.SerializeObject(new Dictionary<string, object> { ["steam_id"] = player.UserIDString });
            Post("/api/game/pending", body, (code, response, signature) =>
            {
                if (code != 200)
                {
                    SendReply(player, Message("Unavailable", player));
                    return;
                }
                var pending = JsonConvert.DeserializeObject<PendingResponse>(response);
                if (pending == null || pending.Items == null || pending.Items.Count == 0)
                {
                    SendReply(player, Message("Nothing", player));
                    return;
                }
                var names = new List<string>();
                foreach (var item in pending.Items)
                {
                    var name = item.DurationDays.HasValue
                        ? string.Format(Message("Days", player), item.Name, item.DurationDays.Value)
                        : item.Name;
                    names.Add(item.Failed ? string.Format(Message("Failed", player), name) : name);
                }
                SendReply(player, string.Format(Message("Waiting", player), string.Join(", ", names.ToArray())));
            });
        }

        private string Message(string key, BasePlayer player)
        {
            return lang.GetMessage(key, this, player.UserIDString);
        }

        #endregion
    }
}
