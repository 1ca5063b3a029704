import { useLocation } from "react-router";
import { SiteLink } from "../site-link.tsx";
import { PROFILE_TABS } from "./labels.ts";

/** The profile tabs: each is its own address, so they work as plain links without JavaScript. */
export function ProfileTabs() {
  const { pathname } = useLocation();
  return (
    <nav className="profile-tabs" aria-label="Разделы профиля">
      {PROFILE_TABS.map((tab) => {
        const active = (tab.paths as readonly string[]).includes(pathname);
        return (
          <SiteLink
            key={tab.to}
            to={tab.to}
            className={active ? "profile-tabs__tab profile-tabs__tab--active" : "profile-tabs__tab"}
            aria-current={active ? "page" : undefined}
            preventScrollReset
          >
            {tab.label}
          </SiteLink>
        );
      })}
    </nav>
  );
}

export function tabTitle(pathname: string): string {
  return PROFILE_TABS.find((tab) => (tab.paths as readonly string[]).includes(pathname))?.label ?? "Профиль";
}
