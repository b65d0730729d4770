/**
 * A small typed event emitter (after wavesurfer.js `event-emitter.ts`): events are a map of
 * name -> labelled tuple, and `on()` returns the function that unsubscribes.
 */
export type EventMap = { [name: string]: unknown[] };
export type Listener<Args extends unknown[]> = (...args: Args) => void;
export type Disposer = () => void;

export class TypedEmitter<Events extends EventMap> {
  private readonly listeners = new Map<keyof Events, Set<(...args: never[]) => void>>();

  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): Disposer {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as unknown as (...args: never[]) => void);
    return () => {
      set.delete(listener as unknown as (...args: never[]) => void);
    };
  }

  emit<K extends keyof Events>(name: K, ...args: Events[K]): void {
    const set = this.listeners.get(name);
    if (!set) return;
    // A throwing listener must not stop the others nor the emitter (a closed window, a dead socket).
    for (const listener of [...set]) {
      try {
        (listener as unknown as Listener<Events[K]>)(...args);
      } catch {
        /* listener failures are the listener's problem */
      }
    }
  }

  removeAll(): void {
    this.listeners.clear();
  }
}
