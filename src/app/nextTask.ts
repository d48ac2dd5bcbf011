/** Issue 48: settles in a task of its own, once the browser has had its turn: what runs after it is not part of the
 *  task that asked (no main-thread task of the console's start over 50 ms of processor time). */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
