"""A third-party, WSDL-driven SOAP client: zeep reads each service's WSDL and calls it.

Usage: python3 client.py http://127.0.0.1:PORT
Prints one JSON object with what each call returned (or the fault it raised).
"""
import datetime
import decimal
import json
import sys

import zeep
import zeep.exceptions
import zeep.helpers


def call(client, op, **args):
    try:
        return {"result": zeep.helpers.serialize_object(getattr(client.service, op)(**args), dict)}
    except zeep.exceptions.Fault as fault:
        detail = fault.detail.text if fault.detail is not None else None
        return {"fault": {"code": fault.code, "string": fault.message, "detail": detail}}


def plain(value):
    """JSON for what zeep decodes: xsd:decimal is a Decimal, xsd:dateTime a datetime."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    raise TypeError(f"cannot print {type(value).__name__}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 client.py BASE_URL")
    base = sys.argv[1]
    seller = zeep.Client(base + "/Services/SellerService?wsdl")
    intra = zeep.Client(base + "/Services/IntraClusterService?wsdl")
    out = {
        "getTrips": call(seller, "getTrips", Src="TLV", Dst="JFK", Date="2026-12-01", Sellers=["LY", "UA"]),
        "sendPrimarySeller": call(intra, "sendPrimarySeller", sellerName="LY", Cursor="2"),
        "getRelevantFlightsByDst": call(intra, "getRelevantFlightsByDst", Dst="XXX", Date="2026-12-01"),
        "reserve": call(seller, "reserve", Alliance="star",
                        Legs=[{"Seller": "LY", "Flight": "LY001"}, {"Seller": "UA", "Flight": "UA123"}],
                        Seats=2, RequestID="zeep-key-1", Hold="10m"),
        "getBooking": call(seller, "getBooking", BookingID="star.nosuchbookingxxxxxxxxxxx"),
    }
    json.dump(out, sys.stdout, default=plain, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
