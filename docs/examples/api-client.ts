// @xoss/api-client: the session storage and the sign-in rule of navigation.
import { createPrefixedStorage, guardNavigation, loginPathFor } from '@xoss/api-client';

const backend = new Map<string, string>(); // in a browser: localStorage
const storage = createPrefixedStorage({
  getItem: (key) => backend.get(key) ?? null,
  setItem: (key, value) => void backend.set(key, value),
  removeItem: (key) => void backend.delete(key),
});
storage.set('language', 'de');
console.log(storage.get('language'), [...backend.keys()], loginPathFor('/dashboard'));
console.log(guardNavigation({ to: '/dashboard', from: '/', loggedIn: false }));
