"""A third-party, WSDL-driven SOAP client (zeep) asking a real airline server for trips.

Usage: python3 trips.py SELLER_SERVICE_URL SRC DST DATE
Prints the trips as "price legs" strings the way the Go tests render them.
With FA_TLS_CERT, FA_TLS_KEY and FA_TLS_CA it speaks HTTPS, presenting that certificate (a secure
airline server requires one of its CA) and trusting that CA.
"""
import json
import os
import sys

import requests
import zeep
import zeep.transports


def transport():
    session = requests.Session()
    # Only the files given here: requests would otherwise let REQUESTS_CA_BUNDLE and the like
    # override session.verify (and the proxies of the environment apply).
    session.trust_env = False
    cert = os.environ.get("FA_TLS_CERT")
    if cert:
        session.cert = (cert, os.environ["FA_TLS_KEY"])
        session.verify = os.environ["FA_TLS_CA"]
    return zeep.transports.Transport(session=session)


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: python3 trips.py SELLER_SERVICE_URL SRC DST DATE")
    url, src, dst, date = sys.argv[1:]
    client = zeep.Client(url + "?wsdl", transport=transport())
    result = client.service.getTrips(Src=src, Dst=dst, Date=date)
    trips = result.Trips or []
    # xsd:decimal arrives as a Decimal: render it with two fraction digits like the wire does.
    rendered = [f"{t.Price:.2f} " + ">".join(leg.Flight for leg in t.Legs) for t in trips]
    json.dump({"complete": result.Complete, "alliance": result.Alliance, "trips": rendered}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
