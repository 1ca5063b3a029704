import { NavLink } from "react-router";

const SECTIONS = [
  { to: "/admin", label: "Сводка", end: true },
  { to: "/admin/players", label: "Игроки", end: false },
  { to: "/admin/audit", label: "Журнал", end: false },
] as const;

export function AdminNav() {
  return (
    <nav className="admin-nav" aria-label="Разделы консоли">
      {SECTIONS.map((section) => (
        <NavLink key={section.to} to={section.to} end={section.end} className="admin-nav__link">
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
