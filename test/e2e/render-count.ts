import type { Page } from 'playwright-core';

/**
 * Counts the renders of the component whose root element carries `data-testid=<testId>`, in the production
 * build: React calls a DevTools hook on every commit (the hook React DevTools and react-scan install), and
 * a function component that ran in a commit holds a new hooks list (`memoizedState`), while one that was
 * skipped keeps the one it had. Install before the page loads React (an init script), then read
 * `renderCount`. A string: the tests are typechecked without the DOM lib.
 */
export async function countRenders(page: Page, testId: string): Promise<void> {
  await page.addInitScript(`(() => {
    const seen = { count: 0, state: undefined };
    window.__renders = seen;
    const owner = (root) => {
      const stack = [root];
      while (stack.length > 0) {
        const fiber = stack.pop();
        if (typeof fiber.type === 'string' && fiber.memoizedProps && fiber.memoizedProps['data-testid'] === ${JSON.stringify(testId)}) return fiber.return;
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
      return undefined;
    };
    window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: (_id, root) => {
        const fiber = owner(root.current);
        const state = fiber ? fiber.memoizedState : undefined;
        if (state !== undefined && state !== seen.state) seen.count++;
        seen.state = state;
      },
    };
  })()`);
}

/** Renders counted so far (mounts included) by the hook countRenders installed. */
export function renderCount(page: Page): Promise<number> {
  return page.evaluate('window.__renders.count') as Promise<number>;
}
