import { NavLink } from "react-router";

const SECTIONS = [
  { to: "/admin", label: "Сводка", end: true, adminOnly: false },
  { to: "/admin/players", label: "Игроки", end: false, adminOnly: false },
  { to: "/admin/items", label: "Каталог", end: false, adminOnly: true },
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

/** The console's sections; support doesn't see the ones only an admin may open. */
export function AdminNav({ role }: { role: string }) {
  return (
    <nav className="admin-nav" aria-label="Разделы консоли">
      {SECTIONS.filter((section) => role === "admin" || !section.adminOnly).map((section) => (
        <NavLink key={section.to} to={section.to} end={section.end} className="admin-nav__link">
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
