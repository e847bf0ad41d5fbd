// The rules page: the players' guide of one game, rendered on the server (guides.rs) into
// the page; this script only draws the header and brings a linked section into view.

import { header } from './api.js';

document.getElementById('top').innerHTML = header('');
if (!document.getElementById('rules-content') && !document.querySelector('#app .error')) {
  document.getElementById('app').innerHTML = '<p class="error">The guide was not rendered by the server.</p>';
}
if (location.hash) {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
}
