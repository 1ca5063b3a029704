// The plugin's cost on the game's main thread (bench/plugin.ts compiles and runs this; decision 124).
// The real RustStoreDelivery.cs runs in the stand-in world of plugins/oxide/stubs with a site that
// answers in-process (World.Responder): signed queue answers of 20 deliveries, signed
// acknowledgements. Everything the plugin does then happens on the main thread — timers, web request
// callbacks, journal writes, commands — so the wall time of each step, minus the stand-in site's own
// time, is what Oxide would count as the plugin's hook time. Prints one JSON object.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using Harness;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Oxide.Plugins;

public static class PluginBench
{
    const BindingFlags Any = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
    const string Key = "bench-key";
    static readonly byte[] HmacKey = SHA256.Create().ComputeHash(Encoding.UTF8.GetBytes(Key));
    static readonly Stopwatch SiteTime = new Stopwatch();
    static RustStoreDelivery plugin;
    static MethodInfo canonical;
    static Type deliveryType;
    static long ackSeq;

    class Queued
    {
        public string Id;
        public string SteamId;
        public List<string> Commands;
        public int Lease;
        public bool Leased;
        public bool Done;
    }

    static readonly List<Queued> queue = new List<Queued>();

    static string Hmac(string text)
    {
        using (var hmac = new HMACSHA256(HmacKey))
        {
            var bytes = hmac.ComputeHash(Encoding.UTF8.GetBytes(text));
            var builder = new StringBuilder();
            foreach (var b in bytes) builder.Append(b.ToString("x2"));
            return builder.ToString();
        }
    }

    static KeyValuePair<int, string> Site(string path, string body, Dictionary<string, string> headers)
    {
        SiteTime.Start();
        try
        {
            var requestSignature = headers["X-Signature"];
            var request = JObject.Parse(body);
            if (path == "/api/game/queue")
            {
                var online = new HashSet<string>();
                foreach (var id in (JArray)request["online"]) online.Add((string)id);
                // Deliveries the plugin did not start (the player not ready, the save's pause) are released.
                foreach (var skip in (JArray)request["skipped"] ?? new JArray())
                    foreach (var q in queue) if (q.Id == (string)skip["delivery_id"] && q.Lease == (int)skip["lease"]) q.Leased = false;
                var list = (IList)Activator.CreateInstance(typeof(List<>).MakeGenericType(deliveryType));
                var served = new JArray();
                foreach (var q in queue)
                {
                    if (list.Count == 20) break;
                    if (q.Leased || q.Done || !online.Contains(q.SteamId)) continue;
                    q.Leased = true;
                    q.Lease++;
                    var d = Activator.CreateInstance(deliveryType);
                    deliveryType.GetField("DeliveryId").SetValue(d, q.Id);
                    deliveryType.GetField("Kind").SetValue(d, "grant");
                    deliveryType.GetField("SteamId").SetValue(d, q.SteamId);
                    deliveryType.GetField("RequiresOnline").SetValue(d, true);
                    deliveryType.GetField("Title").SetValue(d, "Набор");
                    deliveryType.GetField("Commands").SetValue(d, q.Commands);
                    deliveryType.GetField("Done").SetValue(d, new List<int>());
                    deliveryType.GetField("Lease").SetValue(d, q.Lease);
                    deliveryType.GetField("Retry").SetValue(d, 0);
                    list.Add(d);
                    served.Add(new JObject
                    {
                        ["delivery_id"] = q.Id, ["kind"] = "grant", ["steam_id"] = q.SteamId, ["requires_online"] = true,
                        ["title"] = "Набор", ["duration_days"] = null, ["commands"] = new JArray(q.Commands.ToArray()),
                        ["done"] = new JArray(), ["lease"] = q.Lease, ["retry"] = 0,
                    });
                }
                var signature = Hmac(requestSignature + "\n\n" + (string)canonical.Invoke(null, new object[] { list }));
                return new KeyValuePair<int, string>(200, new JObject
                {
                    ["deliveries"] = served, ["lease_seconds"] = 300, ["response_signature_v3"] = signature,
                }.ToString(Formatting.None));
            }
            if (path == "/api/game/ack")
            {
                ackSeq++;
                var results = new JArray();
                var lines = new List<string> { ackSeq.ToString(CultureInfo.InvariantCulture) };
                foreach (var result in (JArray)request["results"])
                {
                    var id = (string)result["delivery_id"];
                    var status = (bool)result["ok"] ? "done" : "progress";
                    foreach (var q in queue) if (q.Id == id && status == "done") q.Done = true;
                    results.Add(new JObject { ["delivery_id"] = id, ["status"] = status });
                    lines.Add(id);
                    lines.Add(status);
                }
                var signature = Hmac(requestSignature + "\nack3\n" + string.Join("\n", lines.ToArray()));
                return new KeyValuePair<int, string>(200, new JObject
                {
                    ["results"] = results, ["ack_seq"] = ackSeq, ["response_signature_v3"] = signature,
                }.ToString(Formatting.None));
            }
            return new KeyValuePair<int, string>(200, "{\"ok\":true}");
        }
        finally
        {
            SiteTime.Stop();
        }
    }

    static object Call(string hook, params object[] args)
    {
        var method = typeof(RustStoreDelivery).GetMethod(hook, Any);
        if (method == null || plugin == null) return null;
        // As Oxide: a hook's arguments go to a method that takes them (an older plugin's OnServerInitialized() takes none).
        return method.Invoke(plugin, method.GetParameters().Length == 0 ? new object[0] : args);
    }

    /// <summary>Main-thread milliseconds of moving the clock `seconds` on (the stand-in site's time left out).</summary>
    static double Step(Action action)
    {
        var site = SiteTime.Elapsed.TotalMilliseconds;
        var clock = Stopwatch.StartNew();
        action();
        return clock.Elapsed.TotalMilliseconds - (SiteTime.Elapsed.TotalMilliseconds - site);
    }

    static string Id(int n) { return "00000000-0000-4000-8000-" + n.ToString("x12"); }

    /// <summary>`count` settled deliveries archived over the last 400 days, one file pair a day, as the plugin keeps them.</summary>
    static void PrefillArchive(string data, int count, long now)
    {
        var days = new Dictionary<string, JObject>();
        for (var i = 0; i < count; i++)
        {
            var day = DateTime.UtcNow.Date.AddDays(-(i % 400)).ToString("yyyyMMdd", CultureInfo.InvariantCulture);
            JObject entries;
            if (!days.TryGetValue(day, out entries)) days[day] = entries = new JObject();
            entries[Id(1_000_000 + i)] = new JObject
            {
                ["Lease"] = 1, ["Retry"] = 0, ["ReportedSeq"] = 1, ["SetAside"] = false, ["RecordedAt"] = now - (i % 400) * 86400L, ["All"] = true,
            };
        }
        foreach (var pair in days)
        {
            var text = new JObject { ["Version"] = 3, ["Seq"] = 1, ["SiteSeq"] = 1, ["Entries"] = pair.Value }.ToString(Formatting.Indented);
            File.WriteAllText(Path.Combine(data, "RustStoreDelivery_archive_" + pair.Key + ".json"), text);
            File.WriteAllText(Path.Combine(data, "RustStoreDelivery_archive_" + pair.Key + "_copy.json"), text);
        }
    }

    public static int Main(string[] args)
    {
        var archived = int.Parse(args[0]);
        var queued = int.Parse(args[1]);
        World.Root = Path.Combine(Path.GetTempPath(), "plugin-bench-" + Guid.NewGuid().ToString("N"));
        var data = Path.Combine(World.Root, "oxide", "data");
        Directory.CreateDirectory(data);
        Directory.CreateDirectory(Path.Combine(World.Root, "oxide", "config"));
        File.WriteAllText(Path.Combine(World.Root, "oxide", "config", "RustStoreDelivery.json"), new JObject
        {
            ["Site URL (https://…)"] = "http://localhost", ["Server id"] = 1, ["Server key"] = Key,
            ["Poll interval, seconds (at least 10)"] = 15, ["Heartbeat interval, seconds (at least 10)"] = 30,
            // The site answers in-process: there is no socket to ring (decision 148), and the figures stay comparable.
            ["Doorbell (the site rings when a delivery is due)"] = false,
        }.ToString());
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        if (archived > 0) PrefillArchive(data, archived, now);
        World.Permission.RegisterPermission("kits.start", null);
        World.CallHook = (hook, hookArgs) => Call(hook, hookArgs);
        World.Responder = Site;
        canonical = typeof(RustStoreDelivery).GetMethod("Canonical", Any);
        deliveryType = typeof(RustStoreDelivery).GetNestedType("Delivery", Any);
        Console.SetOut(TextWriter.Null); // the stand-in's event lines are not the plugin's cost

        // 50 players online; 500 deliveries of two commands each, ten per player.
        var players = new List<string>();
        for (var i = 0; i < 50; i++)
        {
            var id = (76561190000000000UL + (ulong)i + 10).ToString(CultureInfo.InvariantCulture);
            players.Add(id);
            World.Connect(id, "Игрок");
        }
        var items = new[] { "wood", "stones", "metal.fragments", "sulfur", "scrap", "cloth", "lowgradefuel", "ammo.rifle", "ammo.pistol", "apple" };
        for (var i = 0; i < queued; i++)
        {
            var player = players[i % players.Count];
            queue.Add(new Queued
            {
                Id = Id(i), SteamId = player,
                Commands = new List<string> { "inventory.giveto " + player + " " + items[(i / players.Count) % items.Length] + " 10", "oxide.grant user " + player + " kits.start" },
            });
        }
        var queuedNow = new List<Queued>(queue);
        queue.Clear();

        // The plugin reads its archive over frames (decision 131): the longest frame is what a player notices.
        var firstFrame = 0.0;
        World.LongestActionMs = 0;
        var load = Step(() =>
        {
            plugin = new RustStoreDelivery();
            Call("LoadConfig");
            Call("Init");
            firstFrame = Step(() => Call("OnServerInitialized", true));
            World.Settle(TimeSpan.FromSeconds(30));
        });
        var loadFrame = Math.Max(firstFrame, World.LongestActionMs);
        World.Advance(15, TimeSpan.FromSeconds(30)); // the first archive pass and heartbeat

        var idle = new List<double>();
        for (var i = 0; i < 20; i++) idle.Add(Step(() => World.Advance(15, TimeSpan.FromSeconds(30))));

        queue.AddRange(queuedNow);
        World.WriteTime.Reset();
        World.WrittenBytes = 0;
        var polls = new List<double>();
        var guard = 0;
        // Until every delivery has run (the journal has it); one poll after the last to release none.
        var journalField = typeof(RustStoreDelivery).GetField("journal", Any);
        var seen = new HashSet<string>();
        Func<int> ran = () =>
        {
            var journal = journalField.GetValue(plugin);
            var entries = (IDictionary)journal.GetType().GetField("Entries").GetValue(journal);
            foreach (var q in queue) if (entries.Contains(q.Id)) seen.Add(q.Id);
            return seen.Count;
        };
        while (ran() < queue.Count && guard++ < 200) polls.Add(Step(() => World.Advance(15, TimeSpan.FromSeconds(30))));
        var writesMs = World.WriteTime.Elapsed.TotalMilliseconds;
        var writtenKb = World.WrittenBytes / 1024;
        var save = Step(() => { World.AutomatedSave(); World.Settle(TimeSpan.FromSeconds(30)); });
        var reports = new List<double>();
        guard = 0;
        while (queue.Exists(q => !q.Done) && guard++ < 200) reports.Add(Step(() => World.Advance(15, TimeSpan.FromSeconds(30))));

        idle.Sort();
        var idleMedian = idle[idle.Count / 2];
        var deliveringTotal = 0.0;
        foreach (var p in polls) deliveringTotal += p;
        var reportsTotal = 0.0;
        foreach (var r in reports) reportsTotal += r;
        var maxPoll = 0.0;
        foreach (var p in polls) maxPoll = Math.Max(maxPoll, p);
        var result = new JObject
        {
            ["archived"] = archived, ["queued"] = queued,
            ["load_ms"] = Math.Round(load, 1),
            ["load_longest_frame_ms"] = Math.Round(loadFrame, 1),
            ["idle_poll_ms"] = Math.Round(idleMedian, 2),
            ["polls_delivering"] = polls.Count,
            ["max_poll_ms"] = Math.Round(maxPoll, 1),
            ["per_delivery_ms"] = queued == 0 ? 0 : Math.Round((deliveringTotal - idleMedian * polls.Count) / queued, 3),
            ["journal_writes_ms"] = Math.Round(writesMs, 1),
            ["journal_written_kb"] = writtenKb,
            ["save_hook_ms"] = Math.Round(save, 1),
            ["reports_after_save_ms"] = Math.Round(reportsTotal, 1),
            ["delivered"] = queue.FindAll(q => q.Done).Count,
        };
        Console.SetOut(new StreamWriter(Console.OpenStandardOutput()) { AutoFlush = true });
        Console.WriteLine(result.ToString(Formatting.None));
        Directory.Delete(World.Root, true);
        return 0;
    }
}
