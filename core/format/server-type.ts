/** How a server type reads on cards: NO_LIMIT is «NO LIMIT x5 Loot», the others as spelled. */
export function serverTypeLabel(serverType: string): string {
  return serverType === "NO_LIMIT" ? "NO LIMIT x5 Loot" : serverType;
}
