package data

// Name pools per account country, so a German account is usually held by
// someone with a German name and the demo data reads like real data.
var firstNames = map[string][]string{
	"FRA": {"Camille", "Léa", "Manon", "Chloé", "Inès", "Louise", "Jade", "Hugo", "Lucas", "Louis", "Gabriel", "Arthur", "Jules", "Théo", "Nathan", "Mathilde", "Antoine", "Élodie", "Julien", "Sophie"},
	"DEU": {"Lukas", "Leon", "Finn", "Jonas", "Paul", "Felix", "Emma", "Mia", "Hannah", "Lena", "Anna", "Laura", "Maximilian", "Sophie", "Jan", "Katrin", "Tobias", "Julia", "Stefan", "Sabine"},
	"ESP": {"Lucía", "Sofía", "Martina", "María", "Paula", "Hugo", "Martín", "Pablo", "Alejandro", "Daniel", "Carmen", "Javier", "Elena", "Diego", "Marta", "Sergio", "Laura", "Andrés", "Irene", "Raúl"},
	"ITA": {"Giulia", "Francesca", "Sofia", "Aurora", "Alice", "Leonardo", "Francesco", "Lorenzo", "Alessandro", "Matteo", "Chiara", "Marco", "Elena", "Andrea", "Federica", "Luca", "Valentina", "Giorgio", "Martina", "Paolo"},
	"NLD": {"Daan", "Sem", "Lucas", "Levi", "Finn", "Emma", "Julia", "Mila", "Tess", "Sophie", "Anouk", "Bram", "Lotte", "Thijs", "Sanne", "Ruben", "Fleur", "Jesse", "Eva", "Niels"},
	"BEL": {"Louis", "Arthur", "Noah", "Jules", "Adam", "Olivia", "Emma", "Louise", "Mila", "Alice", "Lars", "Elise", "Wout", "Nina", "Maxime", "Charlotte", "Thomas", "Lien", "Victor", "Marie"},
}

var lastNames = map[string][]string{
	"FRA": {"Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau", "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "David", "Bertrand", "Roux", "Vincent", "Fournier"},
	"DEU": {"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann", "Koch", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Braun", "Zimmermann", "Krüger"},
	"ESP": {"García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Álvarez", "Romero", "Navarro", "Torres", "Domínguez"},
	"ITA": {"Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Costa", "Giordano", "Mancini", "Rizzo", "Lombardi", "Moretti"},
	"NLD": {"de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Janssen", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen", "Dekker", "Brouwer"},
	"BEL": {"Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens", "Wouters", "De Smet", "Dubois", "Lambert", "Dupont", "Martens", "Leclercq", "Hermans", "Vermeulen", "Desmet", "Lemaire", "Michiels"},
}

// Company name parts: an activity word, then a legal form per country.
var companyActivities = map[string][]string{
	"FRA": {"Boulangerie", "Atelier", "Cabinet", "Transports", "Studio", "Maison", "Conseil", "Garage", "Librairie", "Pharmacie"},
	"DEU": {"Bäckerei", "Logistik", "Software", "Baustoffe", "Werkstatt", "Beratung", "Handel", "Immobilien", "Gartenbau", "Druckerei"},
	"ESP": {"Panadería", "Transportes", "Consultoría", "Construcciones", "Estudio", "Distribuciones", "Talleres", "Inmobiliaria", "Viajes", "Farmacia"},
	"ITA": {"Panificio", "Trasporti", "Consulenza", "Costruzioni", "Studio", "Distribuzione", "Officina", "Immobiliare", "Viaggi", "Farmacia"},
	"NLD": {"Bakkerij", "Transport", "Advies", "Bouw", "Studio", "Handel", "Garage", "Vastgoed", "Reizen", "Installatie"},
	"BEL": {"Boulangerie", "Transport", "Consulting", "Bouw", "Studio", "Handel", "Garage", "Immo", "Brasserie", "Atelier"},
}

var companyForms = map[string][]string{
	"FRA": {"SAS", "SARL", "SA", "EURL"},
	"DEU": {"GmbH", "UG", "AG", "KG"},
	"ESP": {"S.L.", "S.A."},
	"ITA": {"S.r.l.", "S.p.A."},
	"NLD": {"B.V.", "N.V."},
	"BEL": {"SRL", "BV", "SA"},
}

// Counterparties of generated transfers.
var employers = []string{"Acme Europe SAS", "Nordwind Logistik GmbH", "Iberia Digital S.L.", "Studio Lumière", "Polder Tech B.V.", "Fratelli Conti S.r.l.", "Brasserie du Parc", "Helios Energy SA"}
var payees = []string{"EDF", "Orange", "Vodafone", "Allianz", "AXA Assurances", "SNCF Connect", "Deutsche Bahn", "Amazon EU", "Free Mobile", "Iberdrola", "Enel Energia", "Eneco", "Proximus", "Loyer Agence Foncia", "Leroy Merlin", "Decathlon", "Ikea", "Carrefour", "Lidl", "Booking.com"}
var customers = []string{"Dupont Retail", "Schmidt & Partner", "Café Central", "Hotel Miramar", "Bureau Vallée", "Kaufhaus Weber", "Mercado Sol", "Ristorante Roma", "Bloemenhuis Bos", "Librairie Garnier"}

// Other banks' IBANs used as counterparties (valid check digits).
var counterpartyIBANs = []string{"FR7630006000011234567890189", "DE89370400440532013000", "ES9121000418450200051332", "IT60X0542811101000000123456", "NL91ABNA0417164300", "BE68539007547034"}

var countryLanguages = map[string][]string{
	"FRA": {"fr"},
	"DEU": {"de"},
	"ESP": {"es"},
	"ITA": {"it"},
	"NLD": {"nl"},
	"BEL": {"fr", "nl"},
}

// counterpartyBICs are the BICs of counterpartyIBANs' banks, index by index.
var counterpartyBICs = []string{"AGRIFRPPXXX", "COBADEFFXXX", "CAIXESBBXXX", "BPMOIT22XXX", "ABNANL2AXXX", "GKCCBEBBXXX"}

// merchants are where generated cards pay, with their category codes.
var merchants = []Merchant{
	{"MID0184210", "AMAZON EU SARL", "Luxembourg", "LUX", "L-1855", "5942"},
	{"MID2231877", "CARREFOUR CITY", "Paris", "FRA", "75011", "5411"},
	{"MID3011842", "LIDL SAGT DANKE", "Berlin", "DEU", "10115", "5411"},
	{"MID4418820", "UBER TRIP", "Amsterdam", "NLD", "1097", "4121"},
	{"MID5120031", "SNCF CONNECT", "Paris", "FRA", "75012", "4112"},
	{"MID6284410", "BOOKING.COM", "Amsterdam", "NLD", "1017", "7011"},
	{"MID7301128", "SPOTIFY", "Stockholm", "SWE", "111 53", "5815"},
	{"MID8001934", "TOTALENERGIES", "Lyon", "FRA", "69007", "5541"},
	{"MID8813020", "DECATHLON", "Lille", "FRA", "59000", "5941"},
	{"MID9120447", "MERCADONA", "Valencia", "ESP", "46001", "5411"},
	{"MID9330185", "ESSELUNGA", "Milano", "ITA", "20121", "5411"},
	{"MID9418761", "ALBERT HEIJN", "Utrecht", "NLD", "3511", "5411"},
	{"MID9527703", "DELHAIZE", "Bruxelles", "BEL", "1000", "5411"},
	{"MID9610238", "LE PETIT BISTROT", "Bordeaux", "FRA", "33000", "5812"},
	{"MID9733518", "APPLE.COM/BILL", "Cork", "IRL", "T23", "5734"},
}

// Per country: mobile number prefixes (eight digits follow), cities and
// the email domain suffix of generated people.
var phonePrefix = map[string]string{"FRA": "+336", "DEU": "+4915", "ESP": "+346", "ITA": "+3934", "NLD": "+316", "BEL": "+324"}

var cities = map[string][]string{
	"FRA": {"Paris", "Lyon", "Marseille", "Toulouse", "Nantes", "Lille", "Bordeaux"},
	"DEU": {"Berlin", "Hamburg", "München", "Köln", "Frankfurt am Main", "Leipzig"},
	"ESP": {"Madrid", "Barcelona", "Valencia", "Sevilla", "Bilbao", "Zaragoza"},
	"ITA": {"Roma", "Milano", "Napoli", "Torino", "Bologna", "Firenze"},
	"NLD": {"Amsterdam", "Rotterdam", "Utrecht", "Den Haag", "Eindhoven"},
	"BEL": {"Bruxelles", "Antwerpen", "Gent", "Liège", "Leuven"},
}

var tld = map[string]string{"FRA": "fr", "DEU": "de", "ESP": "es", "ITA": "it", "NLD": "nl", "BEL": "be"}

// streets per country, for residency addresses.
var streets = map[string][]string{
	"FRA": {"rue de la République", "avenue Jean Jaurès", "boulevard Voltaire", "rue Victor Hugo"},
	"DEU": {"Hauptstraße", "Bahnhofstraße", "Gartenweg", "Schillerstraße"},
	"ESP": {"Calle Mayor", "Avenida de la Constitución", "Calle Real", "Paseo del Prado"},
	"ITA": {"Via Roma", "Corso Italia", "Via Garibaldi", "Via Dante"},
	"NLD": {"Kerkstraat", "Dorpsstraat", "Stationsweg", "Molenweg"},
	"BEL": {"Rue de la Station", "Kerkstraat", "Avenue Louise", "Grote Markt"},
}
