// The Node build's server (React Router's SSR build input, see vite.config.ts): `npm start`.
// React and React DOM are loaded from node_modules, and they choose their development build (several
// times slower to render: the item page ran at half the Worker's rate) unless NODE_ENV says
// production when they are first imported. So the setting comes first, and everything else after it.
process.env.NODE_ENV ||= "production";
const { startServer } = await import("./start.ts");
// This file is build-node/server/index.js; the server's own modules land deeper, under assets/.
await startServer(new URL("../", import.meta.url));
