from gql import gql

ACCOUNT_FIELDS = """
        id
        name
        balances { booked { value } }
"""

# Sent to the partner API, with the fields of ACCOUNT_FIELDS.
ACCOUNTS = f"""
query Accounts {{
  accounts(first: 10) {{
    edges {{
      node {{
        {ACCOUNT_FIELDS}
        statu
      }}
    }}
  }}
}}
"""

# Sent to the Testing API.
AUTHORIZE = gql("""
mutation Authorize($input: SimulateIncomingCardAuthorizationInput!) {
  simulateIncomingCardAuthorization(input: $input) {
    __typename
  }
}
""")

SIX = """query SixPy {
  a: projectInfo { id }
  b: projectInfo { id }
  c: projectInfo { id }
  d: projectInfo { id }
  e: projectInfo { id }
  f: projectInfo { id }
}"""
