import { contentSecurityPolicy } from 'helmet';
import type { Config } from '../../core/config';
import { sandboxUrl } from './settings';

const origin = (url: string) => new URL(url).origin;

/**
 * The store's CSP: its own scripts and styles only (no 'unsafe-inline'), Discord's avatars, and in
 * production Razorpay Checkout: checkout.js from checkout.razorpay.com, its frame from api.razorpay.com
 * and checkout.razorpay.com. In development the sandbox serves the avatars and the bot stand-in the page
 * reads, and the checkout is a page of its own (a navigation, which the CSP does not govern).
 */
export function storeContentSecurityPolicy(config: Config) {
  const sandbox = sandboxUrl(config);
  const razorpay = sandbox === null ? ['https://checkout.razorpay.com', 'https://api.razorpay.com'] : [];
  return contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'", ...(sandbox === null ? ['https://checkout.razorpay.com'] : [])],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', origin(config.discord.cdnUrl)],
      connectSrc: ["'self'", ...(sandbox === null ? razorpay : [sandbox])],
      frameSrc: razorpay.length > 0 ? razorpay : ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
    },
  });
}
