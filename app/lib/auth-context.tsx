// The browser's authentication state. The server renders the
// signed-in player from the session cookie, so AuthProvider takes that as its
// starting point (`initialUser`) and the header is right on first paint; the
// stored bearer token (`jwt_token`) is checked against /api/profile at startup.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { apiRequest, clearStoredToken, getStoredToken } from "./api-client.ts";

/** The user profile as /api/profile answers it (balance in rubles). */
export interface AuthUser {
  avatar_url: string;
  nickname: string;
  steam_id: string;
  balance: number;
}

export interface AuthContextValue {
  isAuthenticated: boolean;
  user: AuthUser | null;
  loading: boolean;
  /** Tells the server (when signed in), then forgets the token and the user even if the server call fails. */
  logout: () => Promise<void>;
  /** Asks the server again who is signed in (e.g. to refresh the balance). */
  recheck: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

interface AuthState {
  user: AuthUser | null;
  loading: boolean;
}

function isProfile(value: unknown): value is AuthUser {
  if (!value || typeof value !== "object") return false;
  const profile = value as Record<string, unknown>;
  return (
    typeof profile.steam_id === "string" &&
    typeof profile.nickname === "string" &&
    typeof profile.avatar_url === "string" &&
    typeof profile.balance === "number"
  );
}

/** The header's user (root loader, camelCase) as the profile the API speaks. */
export function authUserFrom(
  user: { nickname: string; avatarUrl: string; steamId: string; balance: number } | null | undefined,
): AuthUser | null {
  return user
    ? { avatar_url: user.avatarUrl, nickname: user.nickname, steam_id: user.steamId, balance: user.balance }
    : null;
}

export function AuthProvider({ children, initialUser }: { children: ReactNode; initialUser?: AuthUser | null }) {
  const revalidator = useRevalidator();
  const serverKnows = initialUser !== undefined;
  // Without the server's word: loading and unauthenticated until /api/profile answers.
  const [state, setState] = useState<AuthState>(() =>
    serverKnows ? { user: initialUser ?? null, loading: false } : { user: null, loading: true },
  );
  const serverUser = useRef(initialUser);
  // Compared by value: callers may build a fresh object on every render.
  const serverKey = initialUser === undefined ? "" : JSON.stringify(initialUser);
  const latestInitialUser = useRef(initialUser);
  latestInitialUser.current = initialUser;

  // The server's view changes after navigations and form posts (sign-out without JavaScript's help, expiry).
  useEffect(() => {
    const next = latestInitialUser.current;
    const previous = serverUser.current;
    serverUser.current = next;
    if (next === undefined || serverKey === JSON.stringify(previous ?? null)) return;
    if (next) {
      setState({ user: next, loading: false });
    } else if (previous) {
      // The session ended on the server: the token named it, so it is dead too.
      clearStoredToken();
      setState({ user: null, loading: false });
    }
  }, [serverKey]);

  const check = useCallback(async (): Promise<boolean> => {
    const token = getStoredToken();
    if (!token && !serverUser.current) {
      setState({ user: null, loading: false });
      return true;
    }
    try {
      const profile = await apiRequest<unknown>("/profile");
      if (!isProfile(profile)) throw new Error("not a profile");
      setState({ user: profile, loading: false });
      return true;
    } catch {
      clearStoredToken();
      setState({ user: null, loading: false });
      return false;
    }
  }, []);

  // The startup check: only a stored token needs checking (the cookie was checked by the server).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, at startup
  useEffect(() => {
    if (!getStoredToken() && serverKnows) return;
    void check().then((ok) => {
      if (!ok && serverKnows) void revalidator.revalidate();
    });
  }, []);

  const recheck = useCallback(async () => {
    await check();
    await revalidator.revalidate();
  }, [check, revalidator]);

  const logout = useCallback(async () => {
    if (getStoredToken() || serverUser.current) {
      try {
        await apiRequest("/logout", { method: "POST" });
      } catch {
        // Signing out locally matters more than the server's answer.
      }
    }
    clearStoredToken();
    setState({ user: null, loading: false });
    await revalidator.revalidate();
  }, [revalidator]);

  const value = useMemo<AuthContextValue>(
    () => ({ isAuthenticated: state.user !== null, user: state.user, loading: state.loading, logout, recheck }),
    [state, logout, recheck],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}
