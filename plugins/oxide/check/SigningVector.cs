// Runs the plugin's own signing code (through reflection, the methods are private) on a fixed
// vector and compares with the values the site computes. The same vector is asserted on the
// TypeScript side in tests/game-keys.test.ts. Run by build.sh when mono is available.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using Oxide.Plugins;

public static class SigningVector
{
    const string Key = "local-dev-key-3";
    const string RequestCanonical = "1795000000\nPOST\n/api/game/queue\n{\"online\":[\"76561198000000001\"]}";
    const string RequestSignature = "487b64eafd21d141ede51e3c41cd2ad3c5c024a8cbb06c2c635d362bed82d0eb";
    // The same request with a query: the signature covers the request line's path and query (decision 142).
    const string RequestUrlWithQuery = "https://shop.example/api/game/queue?online=76561198000000001";
    const string RequestWithQuerySignature = "e7ffc7f65a66acda8cdc89e5d4a581e70663b7fcf33af76ff482cd9781d8f708";
    // Version 3 of the queue answer (decision 124): also over the lease, the retries and what is done; no re-sync.
    const string ResponseSignature = "36b3a6d6a04e26b90097c5cc27081ce7c8e3523b5512e42f54c592aaf5f2569c";
    const string EmptyResponseSignature = "9b2833b04a7cf81997c0f31315154369dc52edc5f31cccc9464781190031ae69";

    static int failures;

    static void Expect(string what, string actual, string expected)
    {
        if (actual == expected) { Console.WriteLine("ok   " + what); return; }
        failures++;
        Console.WriteLine("FAIL " + what + ": " + actual + " != " + expected);
    }

    public static int Main()
    {
        const BindingFlags any = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
        var plugin = new RustStoreDelivery();
        var type = typeof(RustStoreDelivery);
        using (var sha = SHA256.Create())
        {
            type.GetField("signingKey", any).SetValue(plugin, sha.ComputeHash(Encoding.UTF8.GetBytes(Key)));
        }
        var hmac = type.GetMethod("Hmac", any);
        var canonical = type.GetMethod("Canonical", any);
        var deliveryType = type.GetNestedType("Delivery", any);
        var listType = typeof(List<>).MakeGenericType(deliveryType);

        Expect("request signature", (string)hmac.Invoke(plugin, new object[] { RequestCanonical }), RequestSignature);
        var target = (string)type.GetMethod("RequestTarget", any).Invoke(null, new object[] { RequestUrlWithQuery });
        Expect("request target", target, "/api/game/queue?online=76561198000000001");
        var withQuery = "1795000000\nPOST\n" + target + "\n{\"online\":[\"76561198000000001\"]}";
        Expect("request signature over path and query", (string)hmac.Invoke(plugin, new object[] { withQuery }), RequestWithQuerySignature);

        var delivery = Activator.CreateInstance(deliveryType);
        deliveryType.GetField("DeliveryId").SetValue(delivery, "0b7c4a52-6c39-4f5e-9d8a-2f1f6a0c1e11");
        deliveryType.GetField("Kind").SetValue(delivery, "grant");
        deliveryType.GetField("SteamId").SetValue(delivery, "76561198000000001");
        deliveryType.GetField("RequiresOnline").SetValue(delivery, true);
        deliveryType.GetField("Title").SetValue(delivery, "VIP");
        deliveryType.GetField("DurationDays").SetValue(delivery, (int?)30);
        deliveryType.GetField("Commands").SetValue(delivery, new List<string> {
            "oxide.usergroup add 76561198000000001 vip", "say Игрок получил VIP" });
        deliveryType.GetField("Done").SetValue(delivery, new List<int> { 0 });
        deliveryType.GetField("Lease").SetValue(delivery, 3);
        deliveryType.GetField("Retry").SetValue(delivery, 1);
        var list = (IList)Activator.CreateInstance(listType);
        list.Add(delivery);
        var lines = (string)canonical.Invoke(null, new object[] { list });
        Expect("queue answer signature (v3)", (string)hmac.Invoke(plugin, new object[] { RequestSignature + "\n\n" + lines }), ResponseSignature);

        var empty = (string)canonical.Invoke(null, new object[] { Activator.CreateInstance(listType) });
        Expect("empty queue answer signature (v3)", (string)hmac.Invoke(plugin, new object[] { RequestSignature + "\n\n" + empty }), EmptyResponseSignature);
        return failures == 0 ? 0 : 1;
    }
}
