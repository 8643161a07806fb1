import { graphql } from "./gql";

const pattern = /[`'"]+/g;

export const IdentificationsQuery = graphql(`
  query Identifications {
    user {
      identifications(filters: { statuses: [NotStarted] }) {
        totalCount
      }
    }
  }
`);

export function Widget() {
  return <p>It's {pattern.source}, don't panic</p>;
}
