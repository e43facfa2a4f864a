// The UMD build of dockview-core (see dockview.ts); its types are the package's.
declare module 'dockview-core/dist/dockview-core.js';
