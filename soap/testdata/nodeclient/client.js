// A third-party, WSDL-driven SOAP client: the npm "soap" package reads each service's WSDL and
// calls it. Usage: node client.js http://127.0.0.1:PORT
// Prints one JSON object with what each call returned (or the fault it raised).
'use strict';

const soap = require('soap');

async function call(client, op, args) {
  try {
    const [result] = await client[op + 'Async'](args);
    return { result };
  } catch (err) {
    const fault = err && err.root && err.root.Envelope && err.root.Envelope.Body && err.root.Envelope.Body.Fault;
    if (!fault) throw err;
    return { fault: { code: fault.faultcode, string: fault.faultstring, detail: fault.detail } };
  }
}

async function main() {
  const base = process.argv[2];
  if (!base) throw new Error('usage: node client.js BASE_URL');
  const seller = await soap.createClientAsync(base + '/Services/SellerService?wsdl');
  const intra = await soap.createClientAsync(base + '/Services/IntraClusterService?wsdl');
  const out = {
    getTrips: await call(seller, 'getTrips', { Src: 'TLV', Dst: 'JFK', Date: '2026-12-01', Sellers: ['LY', 'UA'] }),
    sendPrimarySeller: await call(intra, 'sendPrimarySeller', { sellerName: 'LY', Cursor: '2' }),
    getRelevantFlightsByDst: await call(intra, 'getRelevantFlightsByDst', { Dst: 'XXX', Date: '2026-12-01' }),
    reserve: await call(seller, 'reserve', {
      Alliance: 'star', Legs: [{ Seller: 'LY', Flight: 'LY001' }, { Seller: 'UA', Flight: 'UA123' }],
      Seats: 2, RequestID: 'node-key-1', Hold: '10m',
    }),
    getBooking: await call(seller, 'getBooking', { BookingID: 'star.nosuchbookingxxxxxxxxxxx' }),
  };
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

main().catch((err) => {
  process.stderr.write((err && err.stack) || String(err));
  process.stderr.write('\n');
  process.exit(1);
});
