// Requests of one kind overlap (a user clicking cells or typing faster
// than the answers come), and their answers may arrive in any order: only
// the newest request's answer, or its error, may reach the page.

/** A sequence of requests of one kind: `begin()` starts the next and
 * returns its turn, whose `current()` says whether no later request has
 * begun since, and whose `settle(promise)` waits for an answer and says
 * `{ value }`, `{ error }`, or `{ stale: true }` when it came too late. */
export function latestOnly() {
  let newest = 0;
  return function begin() {
    const ticket = ++newest;
    const current = () => ticket === newest;
    async function settle(pending) {
      try {
        const value = await pending;
        return current() ? { value } : { stale: true };
      } catch (error) {
        return current() ? { error } : { stale: true };
      }
    }
    return { current, settle };
  };
}
