import { Message, useT } from '@xoss/i18n/react';
import { DeviceIllustration, ProductCard } from '@xoss/ui-kit';
import { SHOP_URL, products } from '../products.ts';

/** Home (spec 2): the line-up as product cards with Buy Now. */
export function Home() {
  const t = useT();
  return (
    <>
      <h1>
        <Message id="app.title" />
      </h1>
      <p className="site__lead">
        <Message id="app.description" />
      </p>
      <section aria-labelledby="lineup">
        <h2 id="lineup">
          <Message id="product.lineup" />
        </h2>
        <ul className="site__cards">
          {products.map((product) => (
            <li key={product.slug}>
              <ProductCard
                name={product.name}
                tagline={t(product.tagline)}
                href={`/product/${product.slug}`}
                buyHref={SHOP_URL}
                theme={product.theme}
                headingLevel={3}
                illustration={<DeviceIllustration shape={product.shape} title={product.name} />}
              />
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
