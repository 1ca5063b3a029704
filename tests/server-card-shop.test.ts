// Issue 46 item 7: a server card on / leads to its type's shop, by the shop selector's own address, so
// the shop keeps the type in its cookie (decision 107). A type the shop doesn't sell for gets no link.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ServerList } from "../app/components/server-list.tsx";
import type { ServerView } from "../app/lib/servers.ts";

const server = (name: string, server_type: string, ip_port: string): ServerView => ({
  name,
  server_type,
  status: "online",
  players: { current: 3, max: 100 },
  ip_port,
});

describe("a server card", () => {
  it("links to its type's shop, and only for a type the shop sells for", () => {
    const html = renderToStaticMarkup(
      createElement(ServerList, {
        initial: [server("Свобода MAX2", "MAX2", "1.2.3.4:28015"), server("Свобода ТЕСТ", "TEST", "1.2.3.4:28016")],
        renderedAt: 0,
      }),
    );
    const card = (name: string) => {
      const start = html.indexOf(name);
      return html.slice(html.lastIndexOf("<li", start), html.indexOf("</li>", start));
    };
    expect(card("Свобода MAX2")).toMatch(
      /<a class="[^"]*server-card__shop" href="\/shop\?server_type=MAX2" aria-label="Магазин для серверов MAX2">Магазин<\/a>/,
    );
    expect(card("Свобода ТЕСТ")).not.toContain("/shop");
  });
});
