// One GET of Steam's Web API: the key and parameters in the address, JSON back, checked by `schema`.
import type { z } from "zod";
import type { Deps } from "../../deps.ts";

/** The parsed answer, or null when Steam didn't answer (network, timeout, non-2xx) or answered something else. */
export async function steamWebApiGet<T>(
  deps: Pick<Deps, "config" | "fetch">,
  method: string,
  params: Record<string, string>,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const url = new URL(`${deps.config.steamWebApiBase}/${method}`);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  try {
    const response = await deps.fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const parsed = schema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
