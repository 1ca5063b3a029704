// Runs the plugin's own reply check (through reflection, it is private) on console replies
// Rust and Oxide give, the same cases tests/game-simulator.test.ts drives through the
// simulator. The stubbed permission library says nobody is in any group. Run by build.sh.
using System;
using System.Reflection;
using Oxide.Plugins;

public static class CommandReplies
{
    static int failures;

    static void Expect(string what, string actual, string expected)
    {
        if (actual == expected) { Console.WriteLine("ok   " + what); return; }
        failures++;
        Console.WriteLine("FAIL " + what + ": " + (actual ?? "(none)") + " != " + (expected ?? "(none)"));
    }

    public static int Main()
    {
        const BindingFlags any = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
        var plugin = new RustStoreDelivery();
        var check = typeof(RustStoreDelivery).GetMethod("CommandFailure", any);
        Func<string, string, string> failure = (command, reply) => (string)check.Invoke(plugin, new object[] { command, reply });

        Expect("unknown group", failure("oxide.usergroup add 76561198000000001 vip", "Group 'vip' doesn't exist\n"),
            "Group 'vip' doesn't exist");
        Expect("unknown item", failure("inventory.giveto 76561198000000001 rifle.ak47 1", "Invalid item: rifle.ak47"),
            "Invalid item: rifle.ak47");
        Expect("unknown player", failure("inventory.giveto 76561198000000001 rifle.ak 1", "Couldn't find player!"),
            "Couldn't find player!");
        Expect("unknown command", failure("kits.give 76561198000000001 start", "Unknown command: kits.give"),
            "Unknown command: kits.give");
        Expect("quiet success", failure("say hello", ""), null);
        Expect("a reply without a failure", failure("inventory.giveto 76561198000000001 rifle.ak 1", "Giving 1 x Assault Rifle"), null);
        Expect("usergroup add leaving the player outside",
            failure("oxide.usergroup add 76561198000000001 vip", "Player '76561198000000001' added to group: vip"),
            "После «oxide.usergroup add 76561198000000001 vip» игрок не в группе vip");
        Expect("usergroup remove", failure("o.usergroup remove 76561198000000001 vip", ""), null);

        if (failures > 0)
        {
            Console.WriteLine(failures + " reply check(s) failed");
            return 1;
        }
        return 0;
    }
}
