import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail the sink took. */
export interface SandboxMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  receivedAt: number;
}

/**
 * A local SMTP server that keeps every mail it is given (the service's SMTP_URL in development and
 * tests): plain SMTP on loopback, no TLS and no login, as a sink needs none. An address made to
 * `refuse` gets a 550 at RCPT TO, as a server that knows no such mailbox answers.
 */
export class SmtpSink {
  readonly mails: SandboxMail[] = [];
  readonly refused = new Set<string>();
  private readonly server: SMTPServer;

  constructor(now: () => number) {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (!this.refused.has(address.address.toLowerCase())) return callback();
        callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            this.mails.push({
              from: typeof session.envelope.mailFrom === 'object' ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: parsed.subject ?? '',
              text: (parsed.text ?? '').trimEnd(),
              receivedAt: now(),
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  /** Listens on `host` and `port` (0: a free one); answers `smtp://host:port`. */
  async listen(host: string, port: number): Promise<string> {
    this.server.listen(port, host);
    await once(this.server.server, 'listening');
    const address = this.server.server.address() as AddressInfo;
    return `smtp://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
