import { createContext, useContext } from 'react';

/** The CSP nonce of this response, rendered into every inline script; empty in the browser (it hides nonces). */
export const NonceContext = createContext<string>('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
