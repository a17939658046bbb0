import { defineConfig } from 'vite';

// No @vitejs/plugin-react: Vite compiles JSX itself (automatic runtime); no dev server or fast refresh needed.
export default defineConfig({
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4000 },
});
