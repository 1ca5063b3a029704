// A small closed-loop load generator: N keep-alive connections, each sending its next
// request as soon as the previous answer is read, for a fixed duration. Localhost only.
import http from "node:http";

export interface RequestSpec {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  url: string;
  request?: Partial<RequestSpec>;
  connections: number;
  durationMs: number;
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  /** Answers with another status than expected, or transport errors. */
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  if (!["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    throw new Error(`bench only loads localhost, not ${url.hostname}`);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const method = options.request?.method ?? "GET";
  const headers = { "accept-encoding": "identity", ...options.request?.headers };
  const body = options.request?.body;
  const expected = options.expectStatus ?? 200;
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;

  const once = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const request = http.request(url, { method, headers, agent }, (response) => {
        response.resume();
        response.on("end", () => {
          latencies.push(performance.now() - sent);
          if (response.statusCode !== expected) errors++;
          resolve();
        });
        response.on("error", () => {
          errors++;
          resolve();
        });
      });
      request.on("error", () => {
        errors++;
        resolve();
      });
      request.end(body);
    });

  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    requestsPerSecond: latencies.length / (elapsed / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
  };
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}
