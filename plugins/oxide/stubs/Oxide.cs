// Compile-only stubs of the Oxide/uMod API surface RustStoreDelivery.cs uses, so CI can
// type-check the plugin with Debian's mono `mcs` without the game or Oxide installed.
// Signatures follow Oxide.Core / Oxide.Rust; bodies do nothing. Never shipped.
using System;
using System.Collections.Generic;

namespace Oxide.Core
{
    public class DataFileSystem
    {
        public T ReadObject<T>(string name) { return default(T); }
        public void WriteObject<T>(string name, T Object, bool sync = false) { }
        public bool ExistsDatafile(string name) { return false; }
    }

    public class OxideMod
    {
        public DataFileSystem DataFileSystem = new DataFileSystem();
    }

    public static class Interface
    {
        public static OxideMod Oxide = new OxideMod();
    }
}

namespace Oxide.Core.Configuration
{
    public class DynamicConfigFile
    {
        public T ReadObject<T>() { return default(T); }
        public void WriteObject<T>(T config, bool sync = false) { }
    }
}

namespace Oxide.Core.Libraries
{
    public enum RequestMethod { DELETE, GET, PATCH, POST, PUT }

    public class WebRequests
    {
        public void Enqueue(string url, string body, Action<int, string> callback, Oxide.Core.Plugins.Plugin owner,
            RequestMethod method = RequestMethod.GET, Dictionary<string, string> headers = null, float timeout = 0f) { }
    }

    public class Permission
    {
        public bool UserHasGroup(string id, string name) { return false; }
    }

    public class Lang
    {
        public void RegisterMessages(Dictionary<string, string> messages, Oxide.Core.Plugins.Plugin plugin, string lang = "en") { }
        public string GetMessage(string key, Oxide.Core.Plugins.Plugin plugin, string userId = null) { return key; }
    }
}

namespace Oxide.Core.Plugins
{
    public abstract class Plugin
    {
        public string Name { get; protected set; }
        public string Title { get; protected set; }
        protected Oxide.Core.Configuration.DynamicConfigFile Config { get; private set; }
        protected virtual void LoadConfig() { }
        protected virtual void LoadDefaultConfig() { }
        protected virtual void SaveConfig() { }
    }
}

namespace Oxide.Plugins
{
    [AttributeUsage(AttributeTargets.Class)]
    public class InfoAttribute : Attribute
    {
        public InfoAttribute(string title, string author, string version) { }
    }

    [AttributeUsage(AttributeTargets.Class)]
    public class DescriptionAttribute : Attribute
    {
        public DescriptionAttribute(string description) { }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public class ChatCommandAttribute : Attribute
    {
        public ChatCommandAttribute(string command) { }
    }

    public class Timer
    {
        public void Destroy() { }
    }

    public class PluginTimers
    {
        public Timer Every(float interval, Action callback) { return new Timer(); }
        public Timer Once(float interval, Action callback) { return new Timer(); }
    }

    public abstract class CSharpPlugin : Oxide.Core.Plugins.Plugin
    {
        protected PluginTimers timer = new PluginTimers();
        protected Oxide.Core.Libraries.WebRequests webrequest = new Oxide.Core.Libraries.WebRequests();
        protected Oxide.Core.Libraries.Lang lang = new Oxide.Core.Libraries.Lang();
        protected Oxide.Core.Libraries.Permission permission = new Oxide.Core.Libraries.Permission();
        protected void Puts(string format, params object[] args) { }
        protected void PrintWarning(string format, params object[] args) { }
        protected void PrintError(string format, params object[] args) { }
        protected void NextTick(Action callback) { }
    }

    public abstract class RustPlugin : CSharpPlugin
    {
        protected void SendReply(BasePlayer player, string format, params object[] args) { }
    }
}
