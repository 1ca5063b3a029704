// Compile-only stub of the part of Newtonsoft.Json (bundled with Oxide) the plugin uses.
using System;

namespace Newtonsoft.Json
{
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property)]
    public class JsonPropertyAttribute : Attribute
    {
        public JsonPropertyAttribute(string propertyName) { }
    }

    public static class JsonConvert
    {
        public static string SerializeObject(object value) { return "{}"; }
        public static T DeserializeObject<T>(string value) { return default(T); }
    }
}
