import { createTransport, type Transporter } from 'nodemailer';

/** What the SMTP server answered one mail, as the work queue acts on it. */
export type MailAnswer =
  | { outcome: 'sent' }
  /** A connection, a timeout or a 4xx: try again later. */
  | { outcome: 'failed'; error: string }
  /** The server refused the address for good (a 5xx to the envelope): sending again cannot help. */
  | { outcome: 'refused'; error: string };

export interface Mail {
  /** `name@example.com`, or `Name <name@example.com>`; a bare address takes `fromName`. */
  from: string;
  fromName: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends plain-text mails through SMTP_URL (nodemailer: TLS, AUTH, pooling and the server's answers are
 * its). The URL's password appears in no error this returns: it names the server's answer or the
 * connection's error code only.
 */
export class SmtpMailer {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, timeoutMs: number) {
    const url = new URL(smtpUrl);
    this.transport = createTransport({
      host: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      pool: true,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(mail: Mail): Promise<MailAnswer> {
    const from = mail.from.includes('<') ? mail.from : { name: mail.fromName, address: mail.from };
    try {
      await this.transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      return { outcome: 'sent' };
    } catch (error) {
      const { code, responseCode, response } = error as {
        code?: string;
        responseCode?: number;
        response?: string;
      };
      if (responseCode === undefined) return { outcome: 'failed', error: `no answer: ${code ?? 'error'}` };
      const answer = `SMTP answered ${String(response ?? responseCode).slice(0, 200)}`;
      return responseCode >= 500 && code === 'EENVELOPE'
        ? { outcome: 'refused', error: answer }
        : { outcome: 'failed', error: answer };
    }
  }

  close(): void {
    this.transport.close();
  }
}
