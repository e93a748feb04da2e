import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePorts } from '../../support/processes';
import { pollUntil } from '../../support/wait';

const run = promisify(execFile);
const HOST = '127.0.0.1';
const MASTER_NAME = 'premium-test';
/** Every data node asks for it (REDIS_PASSWORD); the sentinel for its own (REDIS_SENTINEL_PASSWORD). */
const PASSWORD = 'data-node-secret';
const SENTINEL_PASSWORD = 'sentinel-secret';

/** A throwaway CA (`ca` is its PEM) and a certificate it signed for 127.0.0.1, with its key. */
interface Certificates {
  caFile: string;
  ca: string;
  certFile: string;
  keyFile: string;
}

/** Made by openssl in `dir`, the topology's own temporary directory: nothing of it outlives the test. */
async function makeCertificates(dir: string): Promise<Certificates> {
  const file = (name: string) => path.join(dir, name);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    ...['req', '-x509', ...newKey, '-keyout', file('ca.key'), '-out', file('ca.crt')],
    ...['-days', '1', '-subj', '/CN=premium test CA'],
  ]);
  await run('openssl', [
    ...['req', ...newKey, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${HOST}`],
  ]);
  fs.writeFileSync(file('server.ext'), `subjectAltName=IP:${HOST}\n`);
  await run('openssl', [
    ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key')],
    ...['-set_serial', '1', '-days', '1', '-extfile', file('server.ext'), '-out', file('server.crt')],
  ]);
  return {
    caFile: file('ca.crt'),
    ca: fs.readFileSync(file('ca.crt'), 'utf8'),
    certFile: file('server.crt'),
    keyFile: file('server.key'),
  };
}

/**
 * How a server listens: on `port`, or with `certificates` on that port over TLS only, every link to
 * another server (replication, sentinel, cluster bus) over TLS too.
 */
function listenDirectives(port: number, certificates: Certificates | undefined): [string, string][] {
  if (!certificates) return [['port', String(port)]];
  return [
    ['port', '0'],
    ['tls-port', String(port)],
    ['tls-cert-file', certificates.certFile],
    ['tls-key-file', certificates.keyFile],
    ['tls-ca-cert-file', certificates.caFile],
    // The service's clients show no certificate of their own.
    ['tls-auth-clients', 'no'],
    ['tls-replication', 'yes'],
    ['tls-cluster', 'yes'],
  ];
}

/** A redis-server (a data node, or a sentinel) of the test's own, in a temporary directory; killed at the end. */
class Server {
  private readonly child: ChildProcess;

  constructor(
    readonly port: number,
    args: string[],
    private readonly certificates: Certificates | undefined,
    private readonly password = PASSWORD,
  ) {
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
  }

  /** Answers one command from this server alone (not a topology-aware client). */
  async command(...args: (string | number)[]): Promise<unknown> {
    const client = new Redis({
      host: HOST,
      port: this.port,
      password: this.password,
      tls: this.certificates && { ca: this.certificates.ca },
      lazyConnect: true,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(String(args[0]), ...args.slice(1));
    } finally {
      client.disconnect();
    }
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL, as a crash. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }
}

function dataServerArgs(
  port: number,
  dir: string,
  certificates: Certificates | undefined,
  extra: string[] = [],
): string[] {
  return [
    ...listenDirectives(port, certificates).flatMap(([name, value]) => [`--${name}`, value]),
    ...['--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'no'],
    ...['--requirepass', PASSWORD, '--masterauth', PASSWORD, ...extra],
  ];
}

async function answered(server: Server, check: (reply: unknown) => boolean): Promise<boolean> {
  try {
    return check(await server.command('PING'));
  } catch {
    return false;
  }
}

/** A field of an INFO or CLUSTER INFO reply. */
function infoField(reply: unknown, field: string): string | undefined {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(String(reply))?.[1]?.trim();
}

export interface TopologyOptions {
  /** Servers (and sentinels) that speak TLS only, with a certificate signed by a CA of the test's own. */
  tls?: boolean;
}

/** A new temporary directory, and certificates made in it when `tls`. */
async function setUp(
  label: string,
  { tls = false }: TopologyOptions,
): Promise<{ dir: string; certificates: Certificates | undefined }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `premium-${label}-`));
  try {
    return { dir, certificates: tls ? await makeCertificates(dir) : undefined };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

abstract class PrivateTopology {
  protected readonly servers: Server[] = [];

  protected constructor(
    protected readonly dir: string,
    protected readonly certificates: Certificates | undefined,
  ) {}

  /** What the service's configuration says to reach this topology. */
  abstract get env(): NodeJS.ProcessEnv;

  /** With TLS, REDIS_TLS and the CA that signed the servers' certificate. */
  protected get tlsEnv(): NodeJS.ProcessEnv {
    return this.certificates ? { REDIS_TLS: 'true', REDIS_TLS_CA_FILE: this.certificates.caFile } : {};
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.kill()));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One server on a free port, with a password (in REDIS_URL). */
export class PrivateServer extends PrivateTopology {
  private constructor(
    dir: string,
    certificates: Certificates | undefined,
    private readonly server: Server,
  ) {
    super(dir, certificates);
    this.servers.push(server);
  }

  static async start(options: TopologyOptions = {}): Promise<PrivateServer> {
    const { dir, certificates } = await setUp('server', options);
    const [port] = (await freePorts(1)) as [number];
    const args = dataServerArgs(port, dir, certificates);
    const server = new PrivateServer(dir, certificates, new Server(port, args, certificates));
    try {
      await pollUntil('the server to answer', () => answered(server.server, (reply) => reply === 'PONG'));
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** With TLS, a rediss:// URL and the CA that signed the server's certificate. */
  get env(): NodeJS.ProcessEnv {
    const scheme = this.certificates ? 'rediss' : 'redis';
    return {
      REDIS_URL: `${scheme}://:${PASSWORD}@${HOST}:${this.server.port}`,
      REDIS_TLS_CA_FILE: this.certificates?.caFile,
    };
  }
}

/** A master, its replica and a sentinel watching them, on free ports, each with a password. */
export class PrivateSentinelSet extends PrivateTopology {
  private constructor(
    dir: string,
    certificates: Certificates | undefined,
    private readonly master: Server,
    private readonly replica: Server,
    private readonly sentinel: Server,
  ) {
    super(dir, certificates);
  }

  static async start(options: TopologyOptions = {}): Promise<PrivateSentinelSet> {
    const { dir, certificates } = await setUp('sentinel', options);
    const [masterPort, replicaPort, sentinelPort] = (await freePorts(3)) as [number, number, number];
    const config = path.join(dir, 'sentinel.conf');
    fs.writeFileSync(
      config,
      [
        ...listenDirectives(sentinelPort, certificates).map((directive) => directive.join(' ')),
        `bind ${HOST}`,
        `dir ${dir}`,
        `requirepass ${SENTINEL_PASSWORD}`,
        `sentinel monitor ${MASTER_NAME} ${HOST} ${masterPort} 1`,
        `sentinel auth-pass ${MASTER_NAME} ${PASSWORD}`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
        `sentinel failover-timeout ${MASTER_NAME} 10000`,
        '',
      ].join('\n'),
    );
    const set = new PrivateSentinelSet(
      dir,
      certificates,
      new Server(masterPort, dataServerArgs(masterPort, dir, certificates), certificates),
      new Server(
        replicaPort,
        [...dataServerArgs(replicaPort, dir, certificates), '--replicaof', HOST, String(masterPort)],
        certificates,
      ),
      // `redis-server <config> --sentinel` is what the redis-sentinel package's program runs: no package needed.
      new Server(sentinelPort, [config, '--sentinel'], certificates, SENTINEL_PASSWORD),
    );
    set.servers.push(set.master, set.replica, set.sentinel);
    try {
      await set.untilSettled(masterPort);
    } catch (error) {
      await set.stop();
      throw error;
    }
    return set;
  }

  get env(): NodeJS.ProcessEnv {
    return {
      REDIS_SENTINELS: `${HOST}:${this.sentinel.port}`,
      REDIS_SENTINEL_MASTER: MASTER_NAME,
      REDIS_PASSWORD: PASSWORD,
      REDIS_SENTINEL_PASSWORD: SENTINEL_PASSWORD,
      ...this.tlsEnv,
    };
  }

  /** The port of the server Sentinel names as master now. */
  async masterPort(): Promise<number> {
    const reply = (await this.sentinel.command(
      'SENTINEL',
      'GET-MASTER-ADDR-BY-NAME',
      MASTER_NAME,
    )) as string[];
    return Number(reply[1]);
  }

  /** SENTINEL FAILOVER: the replica becomes master; resolves once Sentinel and both servers agree. */
  async failover(): Promise<void> {
    const oldMaster = await this.masterPort();
    await this.sentinel.command('SENTINEL', 'FAILOVER', MASTER_NAME);
    const newMaster = oldMaster === this.master.port ? this.replica.port : this.master.port;
    await this.untilSettled(newMaster);
  }

  /** Until `masterPort` is master, the other server replicates it, and Sentinel knows both. */
  private async untilSettled(masterPort: number): Promise<void> {
    const [master, replica] =
      masterPort === this.master.port ? [this.master, this.replica] : [this.replica, this.master];
    await pollUntil(
      `the Sentinel set to settle with ${masterPort} as master`,
      async () => {
        if (!(await answered(this.sentinel, (reply) => reply === 'PONG'))) return false;
        if ((await this.masterPort().catch(() => 0)) !== masterPort) return false;
        // Sentinel has the servers close their clients' connections (CLIENT KILL) as it reconfigures them.
        const infos = [master, replica].map((server) => server.command('INFO', 'replication'));
        const [masterInfo, replicaInfo] = await Promise.all(infos).catch(() => []);
        if (masterInfo === undefined) return false;
        const replicas = (await this.sentinel.command('SENTINEL', 'REPLICAS', MASTER_NAME)) as string[][];
        return (
          infoField(masterInfo, 'role') === 'master' &&
          infoField(masterInfo, 'connected_slaves') === '1' &&
          infoField(replicaInfo, 'master_link_status') === 'up' &&
          replicas.length === 1 &&
          !String(replicas[0]).includes('s_down')
        );
      },
      { intervalMs: 100, timeoutMs: 60_000 },
    );
  }
}

/**
 * Three masters with two replicas each (cluster-node-timeout 1 s), on free ports: when a master dies and
 * one replica takes over, the other still confirms writes (EVENTS_STREAM_MIN_REPLICAS=1).
 */
export class PrivateCluster extends PrivateTopology {
  private constructor(
    dir: string,
    certificates: Certificates | undefined,
    private readonly nodes: Server[],
  ) {
    super(dir, certificates);
    this.servers.push(...nodes);
  }

  static async start(options: TopologyOptions = {}): Promise<PrivateCluster> {
    const { dir, certificates } = await setUp('cluster', options);
    const ports = await freePorts(18);
    const nodes = Array.from({ length: 9 }, (_, i) => {
      const [port, busPort] = [ports[2 * i]!, ports[2 * i + 1]!];
      return new Server(
        port,
        dataServerArgs(port, dir, certificates, [
          '--cluster-enabled',
          'yes',
          // The bus port would be port + 10000 otherwise, which may be above 65535.
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          '1000',
          // A replica fails over however long ago it last heard from its master.
          '--cluster-replica-validity-factor',
          '0',
        ]),
        certificates,
      );
    });
    const cluster = new PrivateCluster(dir, certificates, nodes);
    try {
      await pollUntil('the cluster nodes to answer', async () => {
        const up = await Promise.all(nodes.map((node) => answered(node, (reply) => reply === 'PONG')));
        return up.every(Boolean);
      });
      const addresses = nodes.map((node) => `${HOST}:${node.port}`);
      const tls = certificates ? ['--tls', '--cacert', certificates.caFile] : [];
      await run(
        'redis-cli',
        [...tls, '--cluster', 'create', ...addresses, '--cluster-replicas', '2', '--cluster-yes'],
        { env: { ...process.env, REDISCLI_AUTH: PASSWORD } },
      );
      await cluster.untilHealthy(nodes);
      await pollUntil('every replica to have synced with its master', async () => {
        const replication = await Promise.all(nodes.map((node) => node.command('INFO', 'replication')));
        const links = replication.filter((info) => infoField(info, 'role') === 'slave');
        return links.length === 6 && links.every((info) => infoField(info, 'master_link_status') === 'up');
      });
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  get env(): NodeJS.ProcessEnv {
    return {
      REDIS_CLUSTER_NODES: this.nodes.map((node) => `${HOST}:${node.port}`).join(','),
      REDIS_PASSWORD: PASSWORD,
      ...this.tlsEnv,
    };
  }

  /**
   * Kills the master that serves `key`'s slot and resolves once its replica took the slot over and every
   * surviving node sees the cluster as ok.
   */
  async killMasterOf(key: string): Promise<void> {
    const master = await this.masterOf(key);
    await master.kill();
    const survivors = this.nodes.filter((node) => node !== master);
    await pollUntil(
      `a replica to take over ${key}'s slot`,
      async () => {
        const owner = await this.masterOf(key).catch(() => null);
        return owner !== null && owner !== master;
      },
      { intervalMs: 100, timeoutMs: 60_000 },
    );
    await this.untilHealthy(survivors);
  }

  /** The node a surviving node names as master of `key`'s slot. */
  private async masterOf(key: string): Promise<Server> {
    for (const node of this.nodes.filter((candidate) => candidate.alive)) {
      try {
        const slot = Number(await node.command('CLUSTER', 'KEYSLOT', key));
        const shards = (await node.command('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const shard = shards.find(([first, last]) => slot >= first && slot <= last);
        const port = shard?.[2]?.[1];
        const owner = this.nodes.find((candidate) => candidate.port === Number(port));
        if (owner) return owner;
      } catch {
        // This node is gone; ask another.
      }
    }
    throw new Error(`no node knows who serves ${key}`);
  }

  private async untilHealthy(nodes: Server[]): Promise<void> {
    await pollUntil(
      'the cluster to be ok on every node',
      async () => {
        const states = await Promise.all(
          nodes.map((node) => node.command('CLUSTER', 'INFO').catch(() => '')),
        );
        return states.every((info) => infoField(info, 'cluster_state') === 'ok');
      },
      { intervalMs: 100, timeoutMs: 60_000 },
    );
  }
}
