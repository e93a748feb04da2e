/* global window, localStorage, atob */
'use strict';

// The buyer's session token, kept in local storage so that closing the tab does not sign them out: it
// stays until its own expiry (the JWT's `exp`, 24 h after sign-in), or until Sign out, which ends it on
// the server first (POST /api/auth/logout, store.js). Loaded first: every script reads the token here.

const SESSION_KEY = 'premium.sessionToken';

/** When a JWT expires, in ms; Infinity when it cannot be read, so that the API's 401 decides. */
function expiryOf(token) {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload)).exp * 1000 || Infinity;
  } catch {
    return Infinity;
  }
}

/** The token while it has not expired, or null (an expired one is forgotten). */
function sessionToken() {
  const token = localStorage.getItem(SESSION_KEY);
  if (token && expiryOf(token) > Date.now()) return token;
  localStorage.removeItem(SESSION_KEY);
  return null;
}

window.StoreSession = {
  token: sessionToken,
  keep: (token) => localStorage.setItem(SESSION_KEY, token),
  forget: () => localStorage.removeItem(SESSION_KEY),
};
