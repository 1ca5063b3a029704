// A working stand-in for the Rust server types RustStoreDelivery.cs touches (see Oxide.cs): players
// with an inventory of Rust's sizes, item definitions with stack sizes, the console's commands the
// catalog uses, and the server's convars and save time. Behaviour follows the game: giving an item
// fails when no slot can take it; `inventory.giveto` answers "Couldn't give item (inventory full?)"
// after destroying the item; dead, sleeping, wounded and still-connecting players exist. A player who
// leaves stays in the world as a sleeper with their inventory, as in Rust, and what is dropped lies on
// the ground; both are part of the world's save (World.cs). Never shipped.
using System;
using System.Collections.Generic;
using Harness;

namespace UnityEngine
{
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return new Vector3(0, 0, 0); } }
    }

    public enum LogType { Error, Assert, Warning, Log, Exception }

    /// <summary>
    /// Unity's log: every Debug.Log* line reaches Application.logMessageReceived at once, on the thread that
    /// logged (the main thread for Rust's save). The stand-in world logs Rust's save lines through it.
    /// </summary>
    public static class Application
    {
        public delegate void LogCallback(string condition, string stackTrace, LogType type);
        public static event LogCallback logMessageReceived;
        internal static void Raise(string condition, LogType type)
        {
            var handlers = logMessageReceived;
            if (handlers != null) handlers(condition, "", type);
        }
    }

    public static class Debug
    {
        public static void Log(object message) { Emit(message, LogType.Log); }
        public static void LogWarning(object message) { Emit(message, LogType.Warning); }
        public static void LogError(object message) { Emit(message, LogType.Error); }
        private static void Emit(object message, LogType type)
        {
            World.Emit(new Dictionary<string, object> { ["ev"] = "unity", ["type"] = type.ToString(), ["text"] = message == null ? "" : message.ToString() });
            Application.Raise(message == null ? "" : message.ToString(), type);
        }
    }
}

public class ItemDefinition
{
    public string shortname;
    public int stackable;
}

public class Item
{
    public ItemDefinition info;
    public int amount;
    public bool removed;
    /// <summary>Whose feet it was dropped at (the stand-in's ground keeps items by player).</summary>
    internal BasePlayer droppedBy;
    public void Remove(float delay = 0f) { removed = true; }

    /// <summary>Rust: the item becomes a dropped world entity at that position (the stand-in: on the ground by its player).</summary>
    public void Drop(UnityEngine.Vector3 vPos, UnityEngine.Vector3 vVelocity)
    {
        if (removed || amount <= 0) return;
        World.DropOnGround(droppedBy, this);
        removed = true;
    }
}

public class ItemContainer
{
    public int capacity;
    public List<Item> itemList = new List<Item>();
    public ItemContainer(int capacity) { this.capacity = capacity; }
    public bool IsFull() { return itemList.Count >= capacity; }
}

public class PlayerInventory
{
    public ItemContainer containerMain = new ItemContainer(24);
    public ItemContainer containerBelt = new ItemContainer(6);
    public ItemContainer containerWear = new ItemContainer(8);
    internal BasePlayer owner;

    /// <summary>Rust: puts the item in the main container, else the belt; false when neither has room.</summary>
    public bool GiveItem(Item item, ItemContainer container = null)
    {
        if (item == null || item.removed) return false;
        if (World.GivePartly != null && World.GivePartly.Equals(item.info.shortname, StringComparison.OrdinalIgnoreCase))
        {
            // Rust's GiveItem can refuse what a container won't take (another plugin's CanAcceptItem):
            // half goes into the inventory, the rest stays with the caller.
            World.GivePartly = null;
            var moved = item.amount / 2;
            containerMain.itemList.Add(new Item { info = item.info, amount = moved });
            item.amount -= moved;
            item.droppedBy = owner;
            World.EmitGive(owner, item.info.shortname, moved, false);
            return false;
        }
        var left = item.amount;
        foreach (var target in new[] { containerMain, containerBelt })
        {
            foreach (var existing in target.itemList)
            {
                if (existing.info != item.info) continue;
                var room = existing.info.stackable - existing.amount;
                var moved = Math.Min(room, left);
                existing.amount += moved;
                left -= moved;
            }
        }
        foreach (var target in new[] { containerMain, containerBelt })
        {
            while (left > 0 && !target.IsFull())
            {
                var stack = Math.Min(item.info.stackable, left);
                target.itemList.Add(new Item { info = item.info, amount = stack });
                left -= stack;
            }
        }
        var given = item.amount - left;
        if (left > 0)
        {
            // Rust keeps what fit and leaves the rest in the item the caller still holds.
            item.amount = left;
            item.droppedBy = owner;
            World.EmitGive(owner, item.info.shortname, given, false);
            return false;
        }
        World.EmitGive(owner, item.info.shortname, given, true);
        return true;
    }
}

public static class ItemManager
{
    private static readonly Dictionary<string, ItemDefinition> definitions = new Dictionary<string, ItemDefinition>(StringComparer.OrdinalIgnoreCase);

    static ItemManager()
    {
        // Shortnames and stack sizes of the Rust items the seed and the tests use.
        Define("rifle.ak", 1);
        Define("smg.mp5", 1);
        Define("pistol.semiauto", 1);
        Define("ammo.rifle", 128);
        Define("ammo.pistol", 128);
        Define("explosive.timed", 10);
        Define("wood", 1000);
        Define("stones", 1000);
        Define("metal.fragments", 1000);
        Define("metal.refined", 100);
        Define("sulfur", 1000);
        Define("scrap", 1000);
        Define("cloth", 1000);
        Define("lowgradefuel", 500);
        Define("syringe.medical", 2);
        Define("largemedkit", 1);
        Define("bandage", 3);
        Define("metal.facemask", 1);
        Define("metal.plate.torso", 1);
        Define("roadsign.kilt", 1);
        Define("hoodie", 1);
        Define("pants", 1);
        Define("shoes.boots", 1);
        Define("hatchet", 1);
        Define("pickaxe", 1);
        Define("stonehatchet", 1);
        Define("stone.pickaxe", 1);
        Define("torch", 1);
        Define("apple", 10);
        Define("box.wooden.large", 1);
        Define("furnace", 1);
        Define("sleepingbag", 1);
        Define("lock.code", 10);
        Define("door.hinged.metal", 1);
        Define("supply.signal", 1);
        Define("grenade.f1", 10);
    }

    private static void Define(string shortname, int stackable)
    {
        definitions[shortname] = new ItemDefinition { shortname = shortname, stackable = stackable };
    }

    public static ItemDefinition FindItemDefinition(string shortname)
    {
        ItemDefinition definition;
        return shortname != null && definitions.TryGetValue(shortname, out definition) ? definition : null;
    }

    public static Item Create(ItemDefinition template, int amount = 1, ulong skin = 0)
    {
        if (template == null || amount <= 0) return null;
        return new Item { info = template, amount = amount };
    }

    public static Item CreateByName(string strName, int iAmount = 1, ulong skin = 0)
    {
        return Create(FindItemDefinition(strName), iAmount, skin);
    }
}

public class BasePlayer
{
    [Flags]
    public enum PlayerFlags
    {
        Unused1 = 1,
        Unused2 = 2,
        IsAdmin = 4,
        ReceivingSnapshot = 8,
        Sleeping = 16,
        Spectating = 32,
        Wounded = 64,
        IsDeveloper = 128,
        Connected = 256,
    }

    public static List<BasePlayer> activePlayerList = new List<BasePlayer>();

    public ulong userID;
    public string displayName;
    public PlayerFlags playerFlags = PlayerFlags.Connected;
    public bool dead;
    public PlayerInventory inventory = new PlayerInventory();

    public BasePlayer() { inventory.owner = this; }

    public string UserIDString { get { return userID.ToString(); } }
    public bool IsConnected { get { World.MaybeFault("players"); return HasPlayerFlag(PlayerFlags.Connected); } }
    public bool HasPlayerFlag(PlayerFlags flag) { return (playerFlags & flag) == flag; }
    public bool IsDead() { return dead; }
    public bool IsSleeping() { return HasPlayerFlag(PlayerFlags.Sleeping); }
    public bool IsWounded() { return HasPlayerFlag(PlayerFlags.Wounded); }
    public bool IsAlive() { return !dead; }

    public UnityEngine.Vector3 GetDropPosition() { return UnityEngine.Vector3.zero; }
    public UnityEngine.Vector3 GetDropVelocity() { return UnityEngine.Vector3.zero; }

    public void ChatMessage(string message)
    {
        World.Emit(new Dictionary<string, object> { ["ev"] = "chat", ["steam_id"] = UserIDString, ["text"] = message });
    }

    public static BasePlayer FindByID(ulong userID)
    {
        foreach (var player in activePlayerList)
        {
            if (player.userID == userID) return player;
        }
        return null;
    }
}

/// <summary>The server console: the commands the catalog's templates use, answering as Rust and Oxide do.</summary>
public class ConsoleSystem
{
    public class Option
    {
        public static Option Server { get { return new Option(); } }
        public Option Quiet() { return this; }
    }

    public static string Run(Option options, string strCommand, params object[] args)
    {
        var line = args.Length == 0 ? strCommand : strCommand + " " + string.Join(" ", Array.ConvertAll(args, a => a.ToString()));
        World.Emit(new Dictionary<string, object> { ["ev"] = "command", ["text"] = line });
        return World.RunServerCommand(line);
    }
}

public class ConnectionQueue
{
    public int Queued { get { return 0; } }
}

public class ServerMgr
{
    public static ServerMgr Instance = new ServerMgr();
    public ConnectionQueue connectionQueue = new ConnectionQueue();
}

public static class SaveRestore
{
    /// <summary>
    /// When the current save (the wipe) was created, UTC. As in Rust, a server that finds no save of its map
    /// generates a new one now, and one that loads a save takes the time stored in it (World.LoadSave).
    /// </summary>
    public static DateTime SaveCreatedTime = DateTime.UtcNow;

    /// <summary>
    /// True from the start of DoAutomatedSave until its last frame ("Saving complete"), whether or not the
    /// write succeeded; Save(true) (`server.save`) returns false without saving, and without the
    /// OnServerSave hook, while it is (World.cs).
    /// </summary>
    public static bool IsSaving;
}

namespace ConVar
{
    public class Server
    {
        private static string name = "Harness Rust server";
        public static string hostname
        {
            get { World.MaybeFault("hostname"); return name; }
            set { name = value; }
        }
        public static int maxplayers = 100;
        public static string level = "Procedural Map";
        public static int worldsize = 4500;
        public static int seed = 12345;
        /// <summary>Rust's automated save interval, seconds (its default: 600).</summary>
        public static int saveinterval = 600;
    }

    /// <summary>
    /// Rust's server chat. The console's `say` is `Chat.Broadcast(arg.FullString, "SERVER", "#eee", 0UL)` (ConVar.Global.say
    /// in Rust's Assembly-CSharp): the text goes to every player's chat as it is, under the name SERVER.
    /// </summary>
    public class Chat
    {
        public static void Broadcast(string message, string username = "SERVER", string color = "#eee", ulong userid = 0UL)
        {
            World.Emit(new Dictionary<string, object> { ["ev"] = "broadcast", ["text"] = message, ["username"] = username });
        }
    }
}
