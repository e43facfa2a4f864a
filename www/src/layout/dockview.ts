//! dockview-core, with its styles: the package's ES build ships no CSS (its stylesheet is not in
//! the published files), while its UMD build carries the CSS and injects it on load. So the app
//! loads the UMD build and takes its types from the package.

import * as umd from 'dockview-core/dist/dockview-core.js';
import type * as Dockview from 'dockview-core';

const dockview = umd as unknown as typeof Dockview;
export const { createDockview, themeLight } = dockview;
