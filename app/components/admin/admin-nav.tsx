import { useLocation } from "react-router";
import { SiteLink } from "../site-link.tsx";

const SECTIONS = [
  { to: "/admin", label: "Сводка", end: true, adminOnly: false },
  { to: "/admin/players", label: "Игроки", end: false, adminOnly: false },
  { to: "/admin/items", label: "Каталог", end: false, adminOnly: true },
  { to: "/admin/categories", label: "Категории", end: false, adminOnly: true },
  { to: "/admin/deliveries", label: "Доставки", end: false, adminOnly: false },
  { to: "/admin/promos", label: "Промокоды", end: false, adminOnly: false },
  { to: "/admin/sales", label: "Распродажи", end: false, adminOnly: true },
  { to: "/admin/servers", label: "Серверы", end: false, adminOnly: true },
  { to: "/admin/payments", label: "Платежи", end: false, adminOnly: false },
  { to: "/admin/exports", label: "Выгрузки", end: false, adminOnly: false },
  { to: "/admin/discord", label: "Discord", end: false, adminOnly: true },
  { to: "/admin/settings", label: "Настройки", end: false, adminOnly: true },
  { to: "/admin/audit", label: "Журнал", end: false, adminOnly: false },
] as const;

/** Whether a section is the page shown: its own address, or (unless `end`) an address under it. */
function isCurrentSection(pathname: string, section: { to: string; end: boolean }): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  return path === section.to || (!section.end && path.startsWith(`${section.to}/`));
}

/**
 * The console's sections; support doesn't see the ones only an admin may open. Plain links marked by
 * the address, as the profile's tabs are: twelve NavLinks ran some eighty hooks on every console page.
 */
export function AdminNav({ role }: { role: string }) {
  const { pathname } = useLocation();
  return (
    <nav className="admin-nav" aria-label="Разделы консоли">
      {SECTIONS.filter((section) => role === "admin" || !section.adminOnly).map((section) => {
        const current = isCurrentSection(pathname, section);
        return (
          <SiteLink
            key={section.to}
            to={section.to}
            className="admin-nav__link"
            aria-current={current ? "page" : undefined}
          >
            {section.label}
          </SiteLink>
        );
      })}
    </nav>
  );
}
