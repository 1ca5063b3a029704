// Compile-only stubs of the Rust server types RustStoreDelivery.cs touches (see Oxide.cs).
using System.Collections.Generic;

public class BasePlayer
{
    public static List<BasePlayer> activePlayerList = new List<BasePlayer>();
    public ulong userID;
    public string displayName;
    public string UserIDString { get { return userID.ToString(); } }
    public void ChatMessage(string message) { }
}

public class ConsoleSystem
{
    public class Option
    {
        public static Option Server { get { return new Option(); } }
        public Option Quiet() { return this; }
    }

    public static string Run(Option options, string strCommand, params object[] args) { return string.Empty; }
}

public class ConnectionQueue
{
    public int Queued { get { return 0; } }
}

public class ServerMgr
{
    public static ServerMgr Instance;
    public ConnectionQueue connectionQueue = new ConnectionQueue();
}

namespace ConVar
{
    public class Server
    {
        public static string hostname = "";
        public static int maxplayers = 0;
        public static string level = "";
    }
}
