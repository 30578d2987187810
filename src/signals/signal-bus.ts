import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";
import type pg from "pg";

/**
 * Cross-instance notifications (key revoked, account changed). In memory for one instance; Redis pub/sub or
 * PostgreSQL LISTEN/NOTIFY when several instances share storage.
 */
export interface SignalBus {
  readonly kind: "memory" | "redis" | "postgres";
  /** False while the transport is disconnected: callers must not trust caches that rely on it. */
  healthy(): boolean;
  publish(topic: SignalTopic, payload: string): Promise<void>;
  subscribe(topic: SignalTopic, handler: (payload: string) => void): void;
  close(): Promise<void>;
}

export type SignalTopic = "key-revoked" | "account-changed" | "endpoint-changed";

export function createMemorySignalBus(): SignalBus {
  const emitter = new EventEmitter();
  return {
    kind: "memory",
    healthy: () => true,
    publish: async (topic, payload) => {
      emitter.emit(topic, payload);
    },
    subscribe: (topic, handler) => {
      emitter.on(topic, handler);
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

export function createRedisSignalBus(options: {
  publisher: Redis;
  subscriber: Redis;
  prefix: string;
}): SignalBus {
  const { publisher, subscriber, prefix } = options;
  const emitter = new EventEmitter();
  const channelOf = (topic: SignalTopic) => `${prefix}:signal:${topic}`;
  subscriber.on("message", (channel: string, payload: string) => {
    const topic = channel.slice(`${prefix}:signal:`.length);
    emitter.emit(topic, payload);
  });
  return {
    kind: "redis",
    healthy: () => subscriber.status === "ready" && publisher.status === "ready",
    publish: async (topic, payload) => {
      await publisher.publish(channelOf(topic), payload);
    },
    subscribe: (topic, handler) => {
      if (emitter.listenerCount(topic) === 0) void subscriber.subscribe(channelOf(topic));
      emitter.on(topic, handler);
    },
    close: async () => {
      emitter.removeAllListeners();
      subscriber.disconnect();
    },
  };
}

export async function createPostgresSignalBus(pool: pg.Pool, prefix: string): Promise<SignalBus> {
  const emitter = new EventEmitter();
  const channelOf = (topic: SignalTopic) => `${prefix}_${topic}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
  const topicByChannel = new Map<string, SignalTopic>();
  let client: pg.PoolClient | null = null;
  let closed = false;
  let connected = false;

  async function connect(): Promise<void> {
    try {
      client = await pool.connect();
      client.on("notification", (message) => {
        const topic = topicByChannel.get(message.channel);
        if (topic) emitter.emit(topic, message.payload ?? "");
      });
      client.on("error", () => {
        connected = false;
        client?.release(true);
        client = null;
        if (!closed) setTimeout(() => void connect(), 500);
      });
      for (const channel of topicByChannel.keys()) await client.query(`listen "${channel}"`);
      connected = true;
    } catch {
      connected = false;
      if (!closed) setTimeout(() => void connect(), 500);
    }
  }
  await connect();

  return {
    kind: "postgres",
    healthy: () => connected,
    publish: async (topic, payload) => {
      await pool.query("select pg_notify($1, $2)", [channelOf(topic), payload]);
    },
    subscribe: (topic, handler) => {
      const channel = channelOf(topic);
      if (!topicByChannel.has(channel)) {
        topicByChannel.set(channel, topic);
        void client?.query(`listen "${channel}"`).catch(() => {});
      }
      emitter.on(topic, handler);
    },
    close: async () => {
      closed = true;
      emitter.removeAllListeners();
      client?.release();
      client = null;
    },
  };
}
