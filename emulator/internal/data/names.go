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
