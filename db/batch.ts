/** D1's batch wants a non-empty tuple; a batch is one transaction. */
export function asBatch<T>(statements: T[]): [T, ...T[]] {
  const [first, ...rest] = statements;
  if (first === undefined) throw new Error("A batch needs at least one statement");
  return [first, ...rest];
}
