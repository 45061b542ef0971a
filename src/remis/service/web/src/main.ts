// remis web page: entry point. Tabs, the language switch, and the two panels.

import { redrawBoard, rerenderAnalysis, setupAnalysis } from './analysis';
import { $ } from './dom';
import { LANGUAGES, pickLanguage, setLanguage, type Lang } from './i18n';
import { rereadControl } from './newgame';
import { joinFromLink, render, setupPlay } from './play';

function selectTab(name: 'play' | 'analyse'): void {
  for (const tab of ['play', 'analyse'] as const) {
    $(tab).hidden = tab !== name;
    $(`tab-${tab}`).setAttribute('aria-selected', String(tab === name));
  }
  if (name === 'analyse') redrawBoard();
}

async function main(): Promise<void> {
  setupPlay();
  setupAnalysis();
  $('tab-play').addEventListener('click', () => selectTab('play'));
  $('tab-analyse').addEventListener('click', () => selectTab('analyse'));
  const langSelect = $('lang') as HTMLSelectElement;
  const lang = pickLanguage();
  langSelect.value = lang;
  langSelect.addEventListener('change', async () => {
    const l = langSelect.value as Lang;
    if (!(LANGUAGES as readonly string[]).includes(l)) return;
    await setLanguage(l);
    render();
    rerenderAnalysis();
    await rereadControl();
    document.body.dataset.lang = l;
  });
  await setLanguage(lang);
  await rereadControl();
  document.body.dataset.lang = lang;
  await joinFromLink();
  document.body.dataset.ready = 'true';
}

void main();
