/** Reads `read` every 50 ms until `ok` holds, for at most 30 s (generous: tests run at load 20); then gives its last value (for the test's assertion to judge). */
export async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const value = await read()
    if (ok(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return read()
}
