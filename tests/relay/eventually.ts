/** Reads `read` every 50 ms until `ok` holds, for at most 5 s; then gives its last value (for the test's assertion to judge). */
export async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read()
    if (ok(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return read()
}
