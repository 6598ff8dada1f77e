package soap

// The XML Schemas of the two services, one element or complex type per Go type of types.go,
// children in field order. A slice is maxOccurs="unbounded", a field tagged omitempty is
// minOccurs="0"; wsdl_test.go checks both schemas against the Go types.

const flightType = `
      <xsd:complexType name="Flight">
        <xsd:sequence>
          <xsd:element name="Flight" type="xsd:string"/>
          <xsd:element name="Seller" type="xsd:string"/>
          <xsd:element name="Src" type="xsd:string"/>
          <xsd:element name="Dst" type="xsd:string"/>
          <xsd:element name="Departure" type="xsd:dateTime"/>
          <xsd:element name="Arrival" type="xsd:dateTime"/>
          <xsd:element name="Price" type="xsd:decimal"/>
          <xsd:element name="Seats" type="xsd:int"/>
        </xsd:sequence>
      </xsd:complexType>`

const sellerSchema = `
      <xsd:complexType name="Leg">
        <xsd:sequence>
          <xsd:element name="Flight" type="xsd:string"/>
          <xsd:element name="Seller" type="xsd:string"/>
          <xsd:element name="Alliance" type="xsd:string"/>
          <xsd:element name="Src" type="xsd:string"/>
          <xsd:element name="Dst" type="xsd:string"/>
          <xsd:element name="Departure" type="xsd:dateTime"/>
          <xsd:element name="Arrival" type="xsd:dateTime"/>
          <xsd:element name="Price" type="xsd:decimal"/>
          <xsd:element name="Seats" type="xsd:int"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="Trip">
        <xsd:sequence>
          <xsd:element name="Price" type="xsd:decimal"/>
          <xsd:element name="Legs" type="tns:Leg" minOccurs="0" maxOccurs="unbounded"/>
          <xsd:element name="LegIndexes" type="xsd:int" minOccurs="0" maxOccurs="unbounded"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:element name="getTrips">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Src" type="xsd:string"/>
            <xsd:element name="Dst" type="xsd:string"/>
            <xsd:element name="Date" type="xsd:date"/>
            <xsd:element name="Sellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="MaxTrips" type="xsd:int" minOccurs="0"/>
            <xsd:element name="Nonstop" type="xsd:boolean" minOccurs="0"/>
            <xsd:element name="MaxPrice" type="xsd:decimal" minOccurs="0"/>
            <xsd:element name="Sort" type="xsd:string" minOccurs="0"/>
            <xsd:element name="IfNoneMatch" type="xsd:string" minOccurs="0"/>
            <xsd:element name="ShareLegs" type="xsd:boolean" minOccurs="0"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getTripsResponse">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Alliance" type="xsd:string"/>
            <xsd:element name="SharedLegs" type="tns:Leg" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="Trips" type="tns:Trip" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="Complete" type="xsd:boolean"/>
            <xsd:element name="MissingSellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="Total" type="xsd:int"/>
            <xsd:element name="ETag" type="xsd:string" minOccurs="0"/>
            <xsd:element name="NotModified" type="xsd:boolean" minOccurs="0"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>` + bookingSchema

const intraElements = `
      <xsd:complexType name="SendSellerRequest">
        <xsd:sequence>
          <xsd:element name="sellerName" type="xsd:string"/>
          <xsd:element name="Cursor" type="xsd:string" minOccurs="0"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="SellerPage">
        <xsd:sequence>
          <xsd:element name="Seller" type="xsd:string"/>
          <xsd:element name="Version" type="xsd:string"/>
          <xsd:element name="Flights" type="tns:Flight" minOccurs="0" maxOccurs="unbounded"/>
          <xsd:element name="NextCursor" type="xsd:string" minOccurs="0"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="RelevantFlightsResponse">
        <xsd:sequence>
          <xsd:element name="Sellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
          <xsd:element name="Flights" type="tns:Flight" minOccurs="0" maxOccurs="unbounded"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="SellerVersion">
        <xsd:sequence>
          <xsd:element name="Seller" type="xsd:string"/>
          <xsd:element name="Version" type="xsd:string"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:element name="sendPrimarySeller" type="tns:SendSellerRequest"/>
      <xsd:element name="sendPrimarySellerResponse" type="tns:SellerPage"/>
      <xsd:element name="sendBackupSeller" type="tns:SendSellerRequest"/>
      <xsd:element name="sendBackupSellerResponse" type="tns:SellerPage"/>
      <xsd:element name="getRelevantFlightsBySrc">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Src" type="xsd:string"/>
            <xsd:element name="Date" type="xsd:date"/>
            <xsd:element name="Sellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="Versions" type="tns:SellerVersion" minOccurs="0" maxOccurs="unbounded"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getRelevantFlightsBySrcResponse" type="tns:RelevantFlightsResponse"/>
      <xsd:element name="getRelevantFlightsByDst">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Dst" type="xsd:string"/>
            <xsd:element name="Date" type="xsd:date"/>
            <xsd:element name="Sellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="Versions" type="tns:SellerVersion" minOccurs="0" maxOccurs="unbounded"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getRelevantFlightsByDstResponse" type="tns:RelevantFlightsResponse"/>
      <xsd:element name="getFlights">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Seller" type="xsd:string"/>
            <xsd:element name="Flights" type="xsd:string" maxOccurs="unbounded"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getFlightsResponse" type="tns:RelevantFlightsResponse"/>
      <xsd:element name="getRelevantFlights">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Src" type="xsd:string"/>
            <xsd:element name="Dst" type="xsd:string"/>
            <xsd:element name="Date" type="xsd:date"/>
            <xsd:element name="Sellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="Versions" type="tns:SellerVersion" minOccurs="0" maxOccurs="unbounded"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getRelevantFlightsResponse">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Sellers" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="FromSrc" type="tns:Flight" minOccurs="0" maxOccurs="unbounded"/>
            <xsd:element name="ToDst" type="tns:Flight" minOccurs="0" maxOccurs="unbounded"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>`

const intraSchema = flightType + intraElements

const bookingSchema = `
      <xsd:complexType name="LegRef">
        <xsd:sequence>
          <xsd:element name="Seller" type="xsd:string"/>
          <xsd:element name="Flight" type="xsd:string"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="Booking">
        <xsd:sequence>
          <xsd:element name="ID" type="xsd:string"/>
          <xsd:element name="Alliance" type="xsd:string"/>
          <xsd:element name="Legs" type="tns:Leg" maxOccurs="unbounded"/>
          <xsd:element name="Seats" type="xsd:int"/>
          <xsd:element name="Price" type="xsd:decimal"/>
          <xsd:element name="Status" type="xsd:string"/>
          <xsd:element name="CreatedAt" type="xsd:dateTime"/>
          <xsd:element name="ExpiresAt" type="xsd:dateTime" minOccurs="0"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="BookingRequest">
        <xsd:sequence>
          <xsd:element name="BookingID" type="xsd:string"/>
          <xsd:element name="RequestID" type="xsd:string" minOccurs="0"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:complexType name="BookingResponse">
        <xsd:sequence>
          <xsd:element name="Booking" type="tns:Booking"/>
        </xsd:sequence>
      </xsd:complexType>
      <xsd:element name="reserve">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Alliance" type="xsd:string"/>
            <xsd:element name="Legs" type="tns:LegRef" maxOccurs="unbounded"/>
            <xsd:element name="Seats" type="xsd:int"/>
            <xsd:element name="RequestID" type="xsd:string"/>
            <xsd:element name="Hold" type="xsd:string" minOccurs="0"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="reserveResponse">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Booking" type="tns:Booking"/>
            <xsd:element name="Created" type="xsd:boolean"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="cancel" type="tns:BookingRequest"/>
      <xsd:element name="cancelResponse" type="tns:BookingResponse"/>
      <xsd:element name="confirm" type="tns:BookingRequest"/>
      <xsd:element name="confirmResponse" type="tns:BookingResponse"/>
      <xsd:element name="getBooking" type="tns:BookingRequest"/>
      <xsd:element name="getBookingResponse" type="tns:BookingResponse"/>
      <xsd:element name="getSeats">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Alliance" type="xsd:string" minOccurs="0"/>
            <xsd:element name="Seller" type="xsd:string"/>
            <xsd:element name="Flight" type="xsd:string"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="getSeatsResponse">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element name="Seller" type="xsd:string"/>
            <xsd:element name="Flight" type="xsd:string"/>
            <xsd:element name="Capacity" type="xsd:int"/>
            <xsd:element name="Booked" type="xsd:int"/>
            <xsd:element name="Left" type="xsd:int"/>
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>`
