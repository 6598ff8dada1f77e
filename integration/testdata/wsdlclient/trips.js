// A third-party, WSDL-driven SOAP client (the npm "soap" package) asking a real airline server for
// trips. Usage: node trips.js SELLER_SERVICE_URL SRC DST DATE
// Prints the trips as JSON lines "price legs" the way the Go tests render them.
// With FA_TLS_CERT, FA_TLS_KEY and FA_TLS_CA it speaks HTTPS, presenting that certificate (a
// secure airline server requires one of its CA) and trusting that CA.
'use strict';

const fs = require('fs');
const https = require('https');
const soap = require('soap');

function tlsFiles() {
  const { FA_TLS_CERT: cert, FA_TLS_KEY: key, FA_TLS_CA: ca } = process.env;
  if (!cert) return null;
  return { cert: fs.readFileSync(cert), key: fs.readFileSync(key), ca: fs.readFileSync(ca) };
}

async function main() {
  const [url, src, dst, date] = process.argv.slice(2);
  if (!date) throw new Error('usage: node trips.js SELLER_SERVICE_URL SRC DST DATE');
  const tls = tlsFiles();
  const options = tls ? { wsdl_options: { httpsAgent: new https.Agent(tls) } } : {};
  const client = await soap.createClientAsync(url + '?wsdl', options);
  if (tls) client.setSecurity(new soap.ClientSSLSecurity(tls.key, tls.cert, tls.ca));
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
