// A third-party, WSDL-driven SOAP client (the npm "soap" package) asking a real airline server for
// trips. Usage: node trips.js SELLER_SERVICE_URL SRC DST DATE
// Prints the trips as JSON lines "price legs" the way the Go tests render them.
'use strict';

const soap = require('soap');

async function main() {
  const [url, src, dst, date] = process.argv.slice(2);
  if (!date) throw new Error('usage: node trips.js SELLER_SERVICE_URL SRC DST DATE');
  const client = await soap.createClientAsync(url + '?wsdl');
  const [result] = await client.getTripsAsync({ Src: src, Dst: dst, Date: date });
  const trips = (result && result.Trips) || [];
  const rendered = trips.map((t) => {
    // xsd:decimal arrives as a number: render it with two fraction digits like the wire does.
    const price = Number(t.Price).toFixed(2);
    return price + ' ' + t.Legs.map((l) => l.Flight).join('>');
  });
  process.stdout.write(JSON.stringify({ complete: result.Complete, alliance: result.Alliance, trips: rendered }) + '\n');
}

main().catch((err) => {
  process.stderr.write((err && err.stack) || String(err));
  process.stderr.write('\n');
  process.exit(1);
});
