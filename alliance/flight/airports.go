package flight

import "math"

// Airport is a real airport the generator schedules flights between.
type Airport struct {
	Code     string // IATA
	City     string
	Lat, Lon float64 // degrees
}

// Airports returns the generator's table of real airports, sorted by code. The slice is the
// caller's.
func Airports() []Airport {
	return []Airport{
		{"ADD", "Addis Ababa", 8.978, 38.799},
		{"AMM", "Amman", 31.723, 35.993},
		{"AMS", "Amsterdam", 52.310, 4.768},
		{"ARN", "Stockholm", 59.652, 17.919},
		{"ATH", "Athens", 37.936, 23.947},
		{"ATL", "Atlanta", 33.637, -84.428},
		{"BCN", "Barcelona", 41.297, 2.078},
		{"BKK", "Bangkok", 13.690, 100.750},
		{"BOG", "Bogota", 4.702, -74.147},
		{"BOM", "Mumbai", 19.089, 72.868},
		{"BOS", "Boston", 42.366, -71.010},
		{"BUD", "Budapest", 47.437, 19.256},
		{"CAI", "Cairo", 30.122, 31.406},
		{"CDG", "Paris", 49.010, 2.548},
		{"CPH", "Copenhagen", 55.618, 12.656},
		{"DEL", "Delhi", 28.566, 77.103},
		{"DEN", "Denver", 39.856, -104.674},
		{"DFW", "Dallas", 32.900, -97.040},
		{"DOH", "Doha", 25.273, 51.608},
		{"DUB", "Dublin", 53.421, -6.270},
		{"DXB", "Dubai", 25.253, 55.366},
		{"EWR", "Newark", 40.690, -74.175},
		{"EZE", "Buenos Aires", -34.822, -58.536},
		{"FCO", "Rome", 41.800, 12.239},
		{"FRA", "Frankfurt", 50.033, 8.571},
		{"GRU", "Sao Paulo", -23.436, -46.473},
		{"HEL", "Helsinki", 60.317, 24.963},
		{"HKG", "Hong Kong", 22.308, 113.918},
		{"HND", "Tokyo", 35.552, 139.780},
		{"IAD", "Washington", 38.953, -77.456},
		{"ICN", "Seoul", 37.460, 126.441},
		{"IST", "Istanbul", 41.275, 28.752},
		{"JFK", "New York", 40.640, -73.779},
		{"JNB", "Johannesburg", -26.139, 28.246},
		{"LAX", "Los Angeles", 33.942, -118.408},
		{"LHR", "London", 51.470, -0.454},
		{"LIS", "Lisbon", 38.774, -9.134},
		{"MAD", "Madrid", 40.472, -3.561},
		{"MEL", "Melbourne", -37.669, 144.841},
		{"MEX", "Mexico City", 19.436, -99.072},
		{"MIA", "Miami", 25.793, -80.291},
		{"MUC", "Munich", 48.354, 11.786},
		{"MXP", "Milan", 45.630, 8.723},
		{"NBO", "Nairobi", -1.319, 36.928},
		{"NRT", "Tokyo", 35.772, 140.393},
		{"ORD", "Chicago", 41.979, -87.905},
		{"OSL", "Oslo", 60.194, 11.100},
		{"PEK", "Beijing", 40.080, 116.585},
		{"PRG", "Prague", 50.101, 14.260},
		{"PVG", "Shanghai", 31.143, 121.805},
		{"SCL", "Santiago", -33.393, -70.786},
		{"SEA", "Seattle", 47.450, -122.309},
		{"SFO", "San Francisco", 37.619, -122.375},
		{"SIN", "Singapore", 1.364, 103.992},
		{"SYD", "Sydney", -33.946, 151.177},
		{"TLV", "Tel Aviv", 32.011, 34.887},
		{"VIE", "Vienna", 48.110, 16.570},
		{"WAW", "Warsaw", 52.166, 20.967},
		{"YUL", "Montreal", 45.470, -73.741},
		{"YYZ", "Toronto", 43.677, -79.631},
		{"ZRH", "Zurich", 47.458, 8.548},
	}
}

// earthRadiusKm is the mean Earth radius.
const earthRadiusKm = 6371.0

// DistanceKm is the great-circle distance between two airports (haversine formula).
func DistanceKm(a, b Airport) float64 {
	rad := func(deg float64) float64 { return deg * math.Pi / 180 }
	dLat, dLon := rad(b.Lat-a.Lat), rad(b.Lon-a.Lon)
	h := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(rad(a.Lat))*math.Cos(rad(b.Lat))*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h)))
}
