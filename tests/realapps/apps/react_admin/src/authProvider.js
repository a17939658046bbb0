// A deployer's simple sign-in: one desk account, the session kept in sessionStorage (it ends with the tab).
const ACCOUNT = { username: 'desk', password: 'Corpus-desk-2024' };
const KEY = 'desk_session';

export const authProvider = {
  async login({ username, password }) {
    if (username !== ACCOUNT.username || password !== ACCOUNT.password) {
      throw new Error('Wrong username or password');
    }
    sessionStorage.setItem(KEY, JSON.stringify({ username, since: Date.now() }));
  },
  async logout() {
    sessionStorage.removeItem(KEY);
  },
  async checkAuth() {
    if (!sessionStorage.getItem(KEY)) throw new Error('Please sign in');
  },
  async checkError(error) {
    if (error && (error.status === 401 || error.status === 403)) {
      sessionStorage.removeItem(KEY);
      throw error;
    }
  },
  async getIdentity() {
    const session = JSON.parse(sessionStorage.getItem(KEY) || 'null');
    return { id: session ? session.username : 'anonymous', fullName: 'Desk operator' };
  },
  async getPermissions() {
    return null;
  },
};
