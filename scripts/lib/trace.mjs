// Tracing a page through the DevTools protocol, for the scripts that measure where its time goes.

// Starts a trace of `categories` on a CDP session; resolves to a function that ends it and gives
// its events.
export async function startTrace(cdp, categories) {
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => { for (const e of value) events.push(e); });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: categories, recordMode: 'recordAsMuchAsPossible' },
  });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    return events;
  };
}
