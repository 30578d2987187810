/** A set that forgets its oldest member once it holds `capacity`, so per-instance hints cannot grow without bound. */
export class BoundedSet<T> {
  private readonly members = new Set<T>();

  constructor(private readonly capacity: number) {}

  has(value: T): boolean {
    return this.members.has(value);
  }

  add(value: T): void {
    this.members.delete(value);
    this.members.add(value);
    if (this.members.size > this.capacity) {
      const oldest = this.members.values().next();
      if (!oldest.done) this.members.delete(oldest.value);
    }
  }

  delete(value: T): void {
    this.members.delete(value);
  }
}
